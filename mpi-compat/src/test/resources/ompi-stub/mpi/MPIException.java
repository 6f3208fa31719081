package mpi;

// Stub of Open MPI 4.1's mpi.MPIException (from its javadoc): checked, unlike mpirun-j's.
public final class MPIException extends Exception {
    public MPIException(String message) { super(message); }
    public MPIException(Throwable cause) { super(cause); }
    public int getErrorCode() { throw new UnsupportedOperationException("stub"); }
    public int getErrorClass() { throw new UnsupportedOperationException("stub"); }
}
