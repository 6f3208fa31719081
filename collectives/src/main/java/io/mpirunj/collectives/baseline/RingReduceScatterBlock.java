package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Op;
import io.mpirunj.Request;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import java.util.Arrays;

/**
 * Ring reduce-scatter with equal blocks: {@link RingReduceScatter} with every count
 * {@code recv.count()}.
 *
 * <p>Contract and cost: as {@link RingReduceScatter}. Reference: Open MPI
 * {@code ompi_coll_base_reduce_scatter_intra_ring}.
 */
public final class RingReduceScatterBlock implements CollectiveAlgorithm.ReduceScatterBlock {
    private final RingReduceScatter ring = new RingReduceScatter();

    @Override
    public String name() {
        return ring.name();
    }

    @Override
    public String description() {
        return ring.description();
    }

    @Override
    public int priority() {
        return ring.priority();
    }

    @Override
    public Request reduceScatterBlock(CollChannel ch, Buffer send, Buffer recv, Op op, boolean blocking) {
        return ring.reduceScatter(ch, send, recv, counts(ch.size(), recv.count()), op, blocking);
    }

    private static int[] counts(int p, int n) {
        int[] counts = new int[p];
        Arrays.fill(counts, n);
        return counts;
    }
}
