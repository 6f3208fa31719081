package io.mpirunj.runtime.spi;

/** The collective operations an algorithm can implement; the names are those used by {@code --coll}. */
public enum CollectiveOp {
    BARRIER, BCAST, MULTICAST, ALLTOALL, ALLTOALLV, GATHER, GATHERV, SCATTER, SCATTERV, ALLGATHER, ALLGATHERV,
    REDUCE, ALLREDUCE, REDUCE_SCATTER, REDUCE_SCATTER_BLOCK, SCAN, EXSCAN;

    /** The lower-case name used on the command line, e.g. {@code bcast}, {@code reduce_scatter}. */
    public String cliName() {
        return LowerCaseNames.of(this);
    }

    /** Parses a command-line name; the error lists the valid ones. */
    public static CollectiveOp fromCliName(String name) {
        return LowerCaseNames.parse(values(), name, "collective operation");
    }
}
