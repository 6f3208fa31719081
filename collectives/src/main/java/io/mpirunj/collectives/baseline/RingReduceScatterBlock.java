package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Op;
import io.mpirunj.Request;
import io.mpirunj.collectives.builders.ReductionBuilders;
import io.mpirunj.collectives.runner.ScheduleBuffers;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import java.util.Arrays;

/**
 * Ring reduce-scatter with equal blocks: {@link RingReduceScatter}'s schedule with every count
 * {@code recv.count()}.
 *
 * <p>Contract and cost: as {@link RingReduceScatter}. Reference: Open MPI
 * {@code ompi_coll_base_reduce_scatter_intra_ring}.
 */
public final class RingReduceScatterBlock implements CollectiveAlgorithm.ReduceScatterBlock {
    @Override
    public String name() {
        return "ring";
    }

    @Override
    public String description() {
        return "ring: p-1 steps, each passing one partial block to the right neighbour";
    }

    @Override
    public int priority() {
        return 10;
    }

    @Override
    public void reduceScatterBlock(CollChannel ch, Buffer send, Buffer recv, Op op) {
        int[] counts = counts(ch.size(), recv.count());
        int eb = send.type().bytes();
        Scheduled.run(ch, Collective.REDUCE_SCATTER, "ring-block", -1, send.byteLength(), op.name() + "/" + eb,
                ScheduleBuffers.of(send, recv), CollTags.REDUCE_SCATTER_BLOCK,
                () -> ReductionBuilders.ringReduceScatter(ch.size(), RingReduceScatter.blockBytes(counts, eb), op));
    }

    @Override
    public Request ireduceScatterBlock(CollChannel ch, Buffer send, Buffer recv, Op op) {
        int[] counts = counts(ch.size(), recv.count());
        int eb = send.type().bytes();
        return Scheduled.start(ch, Collective.REDUCE_SCATTER, "ring-block", -1, send.byteLength(),
                op.name() + "/" + eb, ScheduleBuffers.of(send, recv), CollTags.REDUCE_SCATTER_BLOCK,
                () -> ReductionBuilders.ringReduceScatter(ch.size(), RingReduceScatter.blockBytes(counts, eb), op));
    }

    private static int[] counts(int p, int n) {
        int[] counts = new int[p];
        Arrays.fill(counts, n);
        return counts;
    }
}
