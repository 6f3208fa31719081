package mpi;

// Stub of Open MPI 4.1's mpi.Datatype (from its javadoc).
public final class Datatype implements Freeable, Cloneable {
    private Datatype() { }

    public static Datatype createContiguous(int count, Datatype oldType) throws MPIException { throw new UnsupportedOperationException("stub"); }
    public void commit() throws MPIException { throw new UnsupportedOperationException("stub"); }
    @Override public void free() throws MPIException { throw new UnsupportedOperationException("stub"); }
    public int getExtent() throws MPIException { throw new UnsupportedOperationException("stub"); }
    public int getSize() throws MPIException { throw new UnsupportedOperationException("stub"); }
}
