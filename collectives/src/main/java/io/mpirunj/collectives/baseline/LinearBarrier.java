package io.mpirunj.collectives.baseline;

import io.mpirunj.collectives.builders.BarrierBuilders;

/**
 * Linear (fan-in, fan-out) barrier: every rank but 0 sends an empty message to rank 0 and waits for its
 * reply; rank 0 receives from all, then replies to each in rank order, so it leaves the barrier first.
 * The built-in choice for ranks as threads on 8-32 ranks ({@code Thresholds.THREAD_RULES}): a bcast
 * from rank 0 after it (OSU's loops) no longer waits for its root to be scheduled after the others left.
 *
 * <p>Contract: any p (1 returns at once); no data. Cost: 2 steps, rank 0 receiving and sending
 * {@code p - 1} zero-byte messages, every other rank one of each.
 *
 * <p>Reference: Open MPI {@code ompi_coll_base_barrier_intra_basic_linear}.
 *
 * <pre>
 * p = 4     rank 0             rank 1   rank 2   rank 3
 * step 1    recv &lt;- 1, 2, 3    1 -> 0   2 -> 0   3 -> 0
 * step 2    0 -> 1, 2, 3       recv     recv     recv
 * </pre>
 */
public final class LinearBarrier extends ScheduledBarrier {
    public LinearBarrier() {
        super("linear", "linear: every rank reports to rank 0, which releases each (rank 0 leaves first)", 0,
                BarrierBuilders::linear);
    }
}
