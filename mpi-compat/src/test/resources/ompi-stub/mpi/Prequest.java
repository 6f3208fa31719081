package mpi;

// Stub of Open MPI 4.1's mpi.Prequest (from its javadoc).
public final class Prequest extends Request {
    private Prequest() { }

    public void start() throws MPIException { throw new UnsupportedOperationException("stub"); }
    public static void startAll(Prequest[] requests) throws MPIException { throw new UnsupportedOperationException("stub"); }
}
