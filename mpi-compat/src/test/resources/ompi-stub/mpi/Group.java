package mpi;

// Stub of Open MPI 4.1's mpi.Group (from its javadoc).
public final class Group implements Freeable, Cloneable {
    private Group() { }

    private static UnsupportedOperationException stub() { return new UnsupportedOperationException("stub"); }

    public int getSize() throws MPIException { throw stub(); }
    public int getRank() throws MPIException { throw stub(); }
    @Override public void free() throws MPIException { throw stub(); }
    public static int[] translateRanks(Group group1, int[] ranks1, Group group2) throws MPIException { throw stub(); }
    public static int compare(Group group1, Group group2) throws MPIException { throw stub(); }
    public static Group union(Group group1, Group group2) throws MPIException { throw stub(); }
    public static Group intersection(Group group1, Group group2) throws MPIException { throw stub(); }
    public static Group difference(Group group1, Group group2) throws MPIException { throw stub(); }
    public Group incl(int[] ranks) throws MPIException { throw stub(); }
    public Group excl(int[] ranks) throws MPIException { throw stub(); }
}
