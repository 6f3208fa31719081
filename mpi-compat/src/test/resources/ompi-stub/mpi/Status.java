package mpi;

// Stub of Open MPI 4.1's mpi.Status (from its javadoc).
public final class Status {
    private Status() { }

    public int getCount(Datatype datatype) throws MPIException { throw new UnsupportedOperationException("stub"); }
    public int getElements(Datatype datatype) throws MPIException { throw new UnsupportedOperationException("stub"); }
    public int getSource() { throw new UnsupportedOperationException("stub"); }
    public int getTag() { throw new UnsupportedOperationException("stub"); }
    public int getIndex() { throw new UnsupportedOperationException("stub"); }
}
