package mpi;

// Stub of Open MPI 4.1's mpi.Request (from its javadoc).
public class Request implements Freeable {
    protected Request() { }

    private static UnsupportedOperationException stub() { return new UnsupportedOperationException("stub"); }

    @Override public void free() throws MPIException { throw stub(); }
    public final boolean isNull() { throw stub(); }
    public final Status waitStatus() throws MPIException { throw stub(); }
    public final void waitFor() throws MPIException { throw stub(); }
    public final Status testStatus() throws MPIException { throw stub(); }
    public final boolean test() throws MPIException { throw stub(); }
    public static Status waitAnyStatus(Request[] requests) throws MPIException { throw stub(); }
    public static int waitAny(Request[] requests) throws MPIException { throw stub(); }
    public static Status[] waitAllStatus(Request[] requests) throws MPIException { throw stub(); }
    public static void waitAll(Request[] requests) throws MPIException { throw stub(); }
    public static boolean testAll(Request[] requests) throws MPIException { throw stub(); }
}
