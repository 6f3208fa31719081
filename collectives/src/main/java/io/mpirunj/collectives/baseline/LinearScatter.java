package io.mpirunj.collectives.baseline;

import io.mpirunj.collectives.builders.GatherBuilders;
import io.mpirunj.collectives.schedule.Schedule;

/**
 * Linear scatter: the root sends block {@code i} of its send buffer to each rank {@code i} and
 * copies its own block; every other rank receives once from the root.
 *
 * <p>Contract: every rank receives {@code n = recv.count()} elements; the root's send holds
 * {@code p n}; send is not touched elsewhere. Cost: 1 step if the root can inject all messages at
 * once, {@code p - 1} on a one-port root; the root sends {@code (p - 1) n} elements.
 *
 * <p>Reference: Open MPI {@code ompi_coll_base_scatter_intra_basic_linear}.
 *
 * <pre>
 * p = 4, root 0   rank 0                  rank 1     rank 2     rank 3
 * step 1          send -> 1, 2, 3; 0:0    recv &lt;- 0  recv &lt;- 0  recv &lt;- 0
 * </pre>
 */
public final class LinearScatter extends ScheduledRooted.Scatter {
    @Override
    public String name() {
        return "linear";
    }

    @Override
    public String description() {
        return "the root sends each rank its block directly";
    }

    @Override
    public int priority() {
        return 5;
    }

    @Override
    Schedule build(int p, int root, long blockBytes) {
        return GatherBuilders.linearScatter(p, root, blockBytes);
    }
}
