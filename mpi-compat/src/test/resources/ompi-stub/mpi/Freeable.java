package mpi;

// Stub of Open MPI 4.1's mpi.Freeable (from its javadoc).
public interface Freeable {
    void free() throws MPIException;
}
