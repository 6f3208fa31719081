package mpi;

/** One communicator of one rank: the runtime communicator, and what this package keeps beside it. */
final class Binding {
    final io.mpirunj.Comm comm;
    volatile String name;
    volatile Errhandler errhandler = MPI.ERRORS_ARE_FATAL;

    Binding(io.mpirunj.Comm comm, String name) {
        this.comm = comm;
        this.name = name;
    }

    /** Frees the communicator (not the world's, which {@link MPI#Finalize()} ends). */
    void free(boolean world) {
        if (!world) {
            comm.close();
        }
    }
}
