package mpi;

// Stub of Open MPI 4.1's mpi.Op (from its javadoc).
public final class Op implements Freeable {
    public Op(UserFunction function, boolean commute) throws MPIException { throw new UnsupportedOperationException("stub"); }
    public boolean isCommutative() { throw new UnsupportedOperationException("stub"); }
    @Override public void free() throws MPIException { throw new UnsupportedOperationException("stub"); }
}
