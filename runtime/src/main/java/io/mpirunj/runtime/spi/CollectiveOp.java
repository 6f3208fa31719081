package io.mpirunj.runtime.spi;

import java.util.Locale;

/** The collective operations an algorithm can implement; the names are those used by {@code --coll}. */
public enum CollectiveOp {
    BARRIER, BCAST, MULTICAST, ALLTOALL, ALLTOALLV, GATHER, GATHERV, SCATTER, SCATTERV, ALLGATHER, ALLGATHERV,
    REDUCE, ALLREDUCE, REDUCE_SCATTER, REDUCE_SCATTER_BLOCK, SCAN, EXSCAN;

    /** The lower-case name used on the command line, e.g. {@code bcast}, {@code reduce_scatter}. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a command-line name; the error lists the valid ones. */
    public static CollectiveOp fromCliName(String name) {
        for (CollectiveOp op : values()) {
            if (op.cliName().equals(name)) {
                return op;
            }
        }
        StringBuilder valid = new StringBuilder();
        for (CollectiveOp op : values()) {
            valid.append(valid.length() == 0 ? "" : ", ").append(op.cliName());
        }
        throw new IllegalArgumentException("unknown collective operation '" + name + "' (expected one of: " + valid + ")");
    }
}
