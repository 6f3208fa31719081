package io.mpirunj.collectives.baseline;

import io.mpirunj.collectives.builders.GatherBuilders;
import io.mpirunj.collectives.schedule.Schedule;

/**
 * Binomial-tree gather. With ranks renumbered relative to the root ({@code v = (rank - root) mod p}),
 * rank {@code v} collects the blocks of its subtree {@code [v, v + size)} into one contiguous
 * buffer (receiving each child's whole subtree in one message), then sends it to its parent
 * {@code v - lowbit(v)}. The root rotates the blocks from virtual into rank order at the end (a
 * local copy, skipped when the root is rank 0, which receives straight into recv). Runs as the
 * {@link GatherBuilders#binomialGather} schedule.
 *
 * <p>Contract: as {@link LinearGather}. Cost: {@code ceil(log2 p)} steps; the root receives
 * {@code (p - 1) n} elements in {@code ceil(log2 p)} messages, and inner ranks hold a temporary of
 * their subtree's size. Fewer, larger messages than linear: better for small blocks.
 *
 * <p>Reference: Open MPI {@code ompi_coll_base_gather_intra_binomial}; MPICH
 * {@code MPIR_Gather_intra_binomial}.
 *
 * <pre>
 * p = 4, root 0   rank 0             rank 1     rank 2             rank 3
 * step 1          recv &lt;- 1 [1]      send -> 0  recv &lt;- 3 [3]      send -> 2
 * step 2          recv &lt;- 2 [2,3]    .          send -> 0 [2,3]    .
 * </pre>
 */
public final class BinomialGather extends ScheduledRooted.Gather {
    @Override
    public String name() {
        return "binomial";
    }

    @Override
    public String description() {
        return "binomial tree: each rank forwards its whole subtree's blocks in one message";
    }

    @Override
    public int priority() {
        return 10;
    }

    @Override
    Schedule build(int p, int root, long blockBytes) {
        return GatherBuilders.binomialGather(p, root, blockBytes);
    }
}
