package io.mpirunj.collectives.baseline;

/**
 * The tags the baseline collectives use on a communicator's private collective context, one per
 * operation (Open MPI's {@code coll_tags.h} idea), so a message of one collective can never be
 * matched by a receive of another. Phases inside one operation that could otherwise meet the same
 * (source, tag) pair get their own tag too.
 *
 * <p>The baseline range is {@code [BASE, BASE + 99]}; other algorithm families should pick their own
 * range (or reuse these per operation).
 */
public final class CollTags {
    /** First tag of the baseline range. */
    public static final int BASE = 1000;

    public static final int BARRIER = BASE + 1;
    public static final int BCAST = BASE + 2;
    public static final int MULTICAST = BASE + 3;
    public static final int ALLTOALL = BASE + 4;
    public static final int ALLTOALLV = BASE + 5;
    public static final int GATHER = BASE + 6;
    public static final int GATHERV = BASE + 7;
    public static final int SCATTER = BASE + 8;
    public static final int SCATTERV = BASE + 9;
    public static final int ALLGATHER = BASE + 10;
    public static final int ALLGATHERV = BASE + 11;
    public static final int REDUCE = BASE + 12;
    /** Recursive doubling: the pairwise exchanges. */
    public static final int ALLREDUCE = BASE + 13;
    /** Recursive doubling with p not a power of two: folding the extra ranks in and the result back out. */
    public static final int ALLREDUCE_FOLD = BASE + 14;
    /** Reduce-scatter, and reduce-scatter with equal blocks (the same ring). */
    public static final int REDUCE_SCATTER = BASE + 15;
    public static final int SCAN = BASE + 17;
    public static final int EXSCAN = BASE + 18;

    private CollTags() {
    }
}
