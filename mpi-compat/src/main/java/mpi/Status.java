package mpi;

/** What a receive, probe or completed request learned about a message (MPI_Status). */
public final class Status {
    private final int source;
    private final int tag;
    private final int byteCount;
    private int index = MPI.UNDEFINED;

    Status(int source, int tag, int byteCount) {
        this.source = source;
        this.tag = tag;
        this.byteCount = byteCount;
    }

    static Status of(io.mpirunj.Status s) {
        return s == null ? null : new Status(s.source(), s.tag(), s.byteCount());
    }

    /** The status of an operation with {@link MPI#PROC_NULL}: no source, any tag, no data. */
    static Status procNull() {
        return new Status(MPI.PROC_NULL, MPI.ANY_TAG, 0);
    }

    Status withIndex(int i) {
        index = i;
        return this;
    }

    /** Number of whole elements of {@code datatype} received, or {@link MPI#UNDEFINED} if not whole. */
    public int getCount(Datatype datatype) {
        int size = datatype.elementBytes();
        if (size == 0) {
            return byteCount == 0 ? 0 : MPI.UNDEFINED;
        }
        return byteCount % size == 0 ? byteCount / size : MPI.UNDEFINED;
    }

    /** Number of base elements of {@code datatype} received. */
    public int getElements(Datatype datatype) {
        return byteCount / datatype.unit.bytes;
    }

    /** Cancellation is not supported, so nothing is ever cancelled. */
    public boolean isCancelled() {
        return false;
    }

    public int getSource() {
        return source;
    }

    public int getTag() {
        return tag;
    }

    /** Always {@link MPI#SUCCESS}: errors are thrown as {@link MPIException}. */
    public int getError() {
        return MPI.SUCCESS;
    }

    /** The index of the request this status belongs to, in waitAny/testAny/waitSome results. */
    public int getIndex() {
        return index;
    }

    @Override
    public String toString() {
        return "Status[source=" + source + ", tag=" + tag + ", bytes=" + byteCount + "]";
    }
}
