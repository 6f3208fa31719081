package mpi;

/**
 * One communicator of one rank: the runtime communicator, and what this package keeps beside it.
 * Made collectively (it duplicates the communicator for {@link NonBlockingCollectives}).
 */
final class Binding {
    final io.mpirunj.Comm comm;
    final NonBlockingCollectives nonBlocking;
    volatile String name;
    volatile Errhandler errhandler = MPI.ERRORS_ARE_FATAL;

    Binding(io.mpirunj.Comm comm, String name) {
        this.comm = comm;
        this.nonBlocking = new NonBlockingCollectives(comm.dup());
        this.name = name;
    }

    /** Frees the communicator (not the world's, which {@link MPI#Finalize()} ends). */
    void free(boolean world) {
        nonBlocking.close();
        if (!world) {
            comm.close();
        }
    }
}
