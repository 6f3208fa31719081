package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Op;
import io.mpirunj.Request;
import io.mpirunj.collectives.builders.ReductionBuilders;
import io.mpirunj.collectives.runner.ScheduleBuffers;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveOp;
import java.util.Arrays;

/**
 * Ring reduce-scatter with per-rank counts: in step {@code s = 0 .. p-2} rank r passes its partial
 * of block {@code (r - s - 1) mod p} to its right neighbour and folds its own contribution into the
 * partial of block {@code (r - s - 2) mod p} coming from its left one; after p - 1 steps it holds
 * block r reduced over every rank. Runs as the {@link ReductionBuilders#ringReduceScatter} schedule,
 * one per (counts, element size, operator). Reduce-scatter-block is the same with every count
 * {@code recv.count()}, so this one class serves both operations; each instance is catalogued under
 * the one {@link #op()} says.
 *
 * <p>Contract: commutative and associative operators (every {@link Op}); every rank passes the same
 * counts; zero counts are fine. Cost: p - 1 steps; every rank sends {@code sum(counts) - counts[r]}
 * elements, only to its neighbour (bandwidth-optimal).
 *
 * <p>Reference: Open MPI {@code ompi_coll_base_reduce_scatter_intra_ring}; P. Patarasuk and X. Yuan,
 * "Bandwidth optimal all-reduce algorithms for clusters of workstations", JPDC 69(2), 2009.
 *
 * <pre>
 * p = 4    rank 0            rank 1            rank 2            rank 3
 * step 1   [3]->1, [2]&lt;-3    [0]->2, [3]&lt;-0    [1]->3, [0]&lt;-1    [2]->0, [1]&lt;-2
 * step 2   [2]->1, [1]&lt;-3    [3]->2, [2]&lt;-0    [0]->3, [3]&lt;-1    [1]->0, [0]&lt;-2
 * step 3   [1]->1, [0]&lt;-3    [2]->2, [1]&lt;-0    [3]->3, [2]&lt;-1    [0]->0, [3]&lt;-2
 * </pre>
 */
public final class RingReduceScatter implements CollectiveAlgorithm.ReduceScatter,
        CollectiveAlgorithm.ReduceScatterBlock {
    /** The operation this instance is catalogued under; both methods work either way. */
    private final CollectiveOp catalogued;

    /** The ring {@code op}: reduce_scatter or reduce_scatter_block. */
    public RingReduceScatter(CollectiveOp op) {
        if (op != CollectiveOp.REDUCE_SCATTER && op != CollectiveOp.REDUCE_SCATTER_BLOCK) {
            throw new IllegalArgumentException("a ring reduce-scatter is a reduce_scatter or a reduce_scatter_block"
                    + " (got " + op + ")");
        }
        this.catalogued = op;
    }

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
    public Request reduceScatter(CollChannel ch, Buffer send, Buffer recv, int[] recvCounts, Op op, boolean blocking) {
        int eb = send.type().bytes();
        return Scheduled.go(blocking, ch, Collective.REDUCE_SCATTER, name(), -1, send.byteLength(),
                variant(op, eb, recvCounts), ScheduleBuffers.of(send, recv), CollTags.REDUCE_SCATTER,
                () -> ReductionBuilders.ringReduceScatter(ch.size(), blockBytes(recvCounts, eb), op));
    }

    @Override
    public CollectiveOp op() {
        return catalogued;
    }

    @Override
    public Request reduceScatterBlock(CollChannel ch, Buffer send, Buffer recv, Op op, boolean blocking) {
        int[] counts = new int[ch.size()];
        Arrays.fill(counts, recv.count());
        return reduceScatter(ch, send, recv, counts, op, blocking);
    }

    static String variant(Op op, int elementBytes, int[] counts) {
        return op.name() + "/" + elementBytes + "/" + Arrays.toString(counts);
    }

    static long[] blockBytes(int[] counts, int elementBytes) {
        long[] out = new long[counts.length];
        for (int i = 0; i < counts.length; i++) {
            out[i] = (long) counts[i] * elementBytes;
        }
        return out;
    }
}
