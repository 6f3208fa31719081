package io.mpirunj.collectives.baseline;

import io.mpirunj.collectives.builders.GatherBuilders;
import io.mpirunj.collectives.schedule.Schedule;

/**
 * Binomial-tree scatter, the mirror of {@link BinomialGather}. With ranks renumbered relative to
 * the root ({@code v = (rank - root) mod p}), rank {@code v} receives the blocks of its whole
 * subtree {@code [v, v + size)} from its parent in one message, forwards each child's subtree
 * (largest first) and keeps block 0. The root first rotates its send buffer into virtual order (a
 * local copy, skipped when the root is rank 0). Runs as the {@link GatherBuilders#binomialScatter}
 * schedule.
 *
 * <p>Contract: as {@link LinearScatter}. Cost: {@code ceil(log2 p)} steps; the root sends
 * {@code (p - 1) n} elements in {@code ceil(log2 p)} messages, and inner ranks hold a temporary of
 * their subtree's size.
 *
 * <p>Reference: Open MPI {@code ompi_coll_base_scatter_intra_binomial}; MPICH
 * {@code MPIR_Scatter_intra_binomial}.
 *
 * <pre>
 * p = 4, root 0   rank 0             rank 1     rank 2             rank 3
 * step 1          send -> 2 [2,3]    .          recv &lt;- 0 [2,3]    .
 * step 2          send -> 1 [1]      recv &lt;- 0  send -> 3 [3]      recv &lt;- 2
 * </pre>
 */
public final class BinomialScatter extends ScheduledRooted.Scatter {
    @Override
    public String name() {
        return "binomial";
    }

    @Override
    public String description() {
        return "binomial tree: each rank receives its whole subtree's blocks in one message";
    }

    @Override
    public int priority() {
        return 10;
    }

    @Override
    Schedule build(int p, int root, long blockBytes) {
        return GatherBuilders.binomialScatter(p, root, blockBytes);
    }
}
