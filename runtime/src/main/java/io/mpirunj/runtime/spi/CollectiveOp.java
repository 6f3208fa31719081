package io.mpirunj.runtime.spi;

import io.mpirunj.runtime.spi.CollectiveAlgorithm.Allgather;
import io.mpirunj.runtime.spi.CollectiveAlgorithm.Allgatherv;
import io.mpirunj.runtime.spi.CollectiveAlgorithm.Allreduce;
import io.mpirunj.runtime.spi.CollectiveAlgorithm.Alltoall;
import io.mpirunj.runtime.spi.CollectiveAlgorithm.Alltoallv;
import io.mpirunj.runtime.spi.CollectiveAlgorithm.Barrier;
import io.mpirunj.runtime.spi.CollectiveAlgorithm.Bcast;
import io.mpirunj.runtime.spi.CollectiveAlgorithm.Exscan;
import io.mpirunj.runtime.spi.CollectiveAlgorithm.Gather;
import io.mpirunj.runtime.spi.CollectiveAlgorithm.Gatherv;
import io.mpirunj.runtime.spi.CollectiveAlgorithm.Multicast;
import io.mpirunj.runtime.spi.CollectiveAlgorithm.Reduce;
import io.mpirunj.runtime.spi.CollectiveAlgorithm.ReduceScatter;
import io.mpirunj.runtime.spi.CollectiveAlgorithm.ReduceScatterBlock;
import io.mpirunj.runtime.spi.CollectiveAlgorithm.Scan;
import io.mpirunj.runtime.spi.CollectiveAlgorithm.Scatter;
import io.mpirunj.runtime.spi.CollectiveAlgorithm.Scatterv;

/**
 * The collective operations an algorithm can implement, each with the interface its algorithms implement; the
 * names are those used by {@code --coll}.
 */
public enum CollectiveOp {
    BARRIER(Barrier.class), BCAST(Bcast.class), MULTICAST(Multicast.class), ALLTOALL(Alltoall.class),
    ALLTOALLV(Alltoallv.class), GATHER(Gather.class), GATHERV(Gatherv.class), SCATTER(Scatter.class),
    SCATTERV(Scatterv.class), ALLGATHER(Allgather.class), ALLGATHERV(Allgatherv.class), REDUCE(Reduce.class),
    ALLREDUCE(Allreduce.class), REDUCE_SCATTER(ReduceScatter.class), REDUCE_SCATTER_BLOCK(ReduceScatterBlock.class),
    SCAN(Scan.class), EXSCAN(Exscan.class);

    private final Class<? extends CollectiveAlgorithm> algorithmType;

    CollectiveOp(Class<? extends CollectiveAlgorithm> algorithmType) {
        this.algorithmType = algorithmType;
    }

    /**
     * Whether a call has a message size every rank agrees on ({@link CallShape#bytes}): not a barrier nor the
     * v-variants, whose counts differ per rank.
     */
    public boolean sized() {
        return this != BARRIER && this != ALLTOALLV && this != GATHERV && this != SCATTERV && this != ALLGATHERV;
    }

    /** The interface of this operation's algorithms, e.g. {@link CollectiveAlgorithm.Bcast} for {@link #BCAST}. */
    public Class<? extends CollectiveAlgorithm> algorithmType() {
        return algorithmType;
    }

    /**
     * The one operation whose {@link #algorithmType} {@code algorithm} implements (what {@link CollectiveAlgorithm#op}
     * returns unless the algorithm says otherwise).
     *
     * @throws IllegalArgumentException when it implements none, or two (its class must then say which it serves)
     */
    static CollectiveOp servedBy(CollectiveAlgorithm algorithm) {
        CollectiveOp served = null;
        for (CollectiveOp op : values()) {
            if (op.algorithmType.isInstance(algorithm)) {
                if (served != null) {
                    throw new IllegalArgumentException(algorithm.getClass().getName() + " implements both "
                            + served.cliName() + " and " + op.cliName() + ": its op() must say which it serves");
                }
                served = op;
            }
        }
        if (served == null) {
            throw new IllegalArgumentException(algorithm.getClass().getName()
                    + " implements no operation's interface: its op() must say which it serves");
        }
        return served;
    }

    /** The lower-case name used on the command line, e.g. {@code bcast}, {@code reduce_scatter}. */
    public String cliName() {
        return LowerCaseNames.of(this);
    }

    /** Parses a command-line name; the error lists the valid ones. */
    public static CollectiveOp fromCliName(String name) {
        return LowerCaseNames.parse(values(), name, "collective operation");
    }
}
