package mpi;

/** An intra-communicator: every communicator of this package is one. */
public class Intracomm extends Comm {
    Intracomm(int kind, Binding binding) {
        super(kind, binding);
    }

    @Override
    public Intracomm dup() {
        return dupIntracomm();
    }

    @Override
    public Intracomm iDup() {
        return dupIntracomm();
    }

    @Override
    public Intracomm clone() {
        return dupIntracomm();
    }

    /**
     * Partitions this communicator by {@code colour}, ranks ordered by {@code key} then old rank
     * (MPI_COMM_SPLIT). Ranks passing {@link MPI#UNDEFINED} get a null communicator ({@link #isNull()}).
     * Collective.
     */
    public final Intracomm split(int colour, int key) {
        return onComm("split", c -> wrap(c.split(colour, key), null));
    }

    /**
     * A communicator of the members of {@code group}, in group order (MPI_COMM_CREATE); a null
     * communicator on ranks outside it. Collective over this communicator.
     */
    public final Intracomm create(Group group) {
        return onComm("create", c -> {
            int[] ranks = new int[group.worldRanks.length];
            for (int i = 0; i < ranks.length; i++) {
                ranks[i] = rankOfWorld(c, group.worldRanks[i]);
            }
            return wrap(c.create(ranks), null);
        });
    }

    private static int rankOfWorld(io.mpirunj.Comm c, int worldRank) {
        for (int r = 0; r < c.size(); r++) {
            if (c.worldRank(r) == worldRank) {
                return r;
            }
        }
        throw new MPIException("create: world rank " + worldRank + " of the group is not in this communicator", null,
                MPI.ERR_GROUP);
    }

    /** Inclusive prefix reduction (MPI_SCAN): rank r gets {@code r0 op ... op r}. */
    public final void scan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) {
        scan0("scan", sendbuf, recvbuf, count, type, op, false, false);
    }

    public final void scan(Object buf, int count, Datatype type, Op op) {
        scan0("scan", buf, buf, count, type, op, true, false);
    }

    public final Request iScan(java.nio.Buffer sendbuf, java.nio.Buffer recvbuf, int count, Datatype type, Op op) {
        return iScan0("iScan", sendbuf, recvbuf, count, type, op, false, false);
    }

    public final Request iScan(java.nio.Buffer buf, int count, Datatype type, Op op) {
        return iScan0("iScan", buf, buf, count, type, op, true, false);
    }

    /** Exclusive prefix reduction (MPI_EXSCAN): rank r gets {@code r0 op ... op r-1}; rank 0's result is unchanged. */
    public final void exScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) {
        scan0("exScan", sendbuf, recvbuf, count, type, op, false, true);
    }

    public final void exScan(Object buf, int count, Datatype type, Op op) {
        scan0("exScan", buf, buf, count, type, op, true, true);
    }

    public final Request iExScan(java.nio.Buffer sendbuf, java.nio.Buffer recvbuf, int count, Datatype type, Op op) {
        return iScan0("iExScan", sendbuf, recvbuf, count, type, op, false, true);
    }

    public final Request iExScan(java.nio.Buffer buf, int count, Datatype type, Op op) {
        return iScan0("iExScan", buf, buf, count, type, op, true, true);
    }
}
