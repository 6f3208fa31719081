package io.mpirunj.collectives.baseline;

import io.mpirunj.collectives.builders.GatherBuilders;
import io.mpirunj.collectives.schedule.Schedule;

/**
 * Linear gather: the root posts a receive from every other rank straight into its slot of recv,
 * copies its own block, and waits; every other rank sends its buffer to the root once.
 *
 * <p>Contract: every rank sends {@code n = send.count()} elements; the root's recv holds
 * {@code p n}, block {@code i} from rank {@code i}; recv is not touched elsewhere. Cost: 1 step
 * if the root can take all messages at once, {@code p - 1} on a one-port root; the root receives
 * {@code (p - 1) n} elements.
 *
 * <p>Reference: Open MPI {@code ompi_coll_base_gather_intra_basic_linear}.
 *
 * <pre>
 * p = 4, root 0   rank 0                  rank 1     rank 2     rank 3
 * step 1          recv &lt;- 1, 2, 3; 0:0    send -> 0  send -> 0  send -> 0
 * </pre>
 */
public final class LinearGather extends ScheduledRooted.Gather {
    @Override
    public String name() {
        return "linear";
    }

    @Override
    public String description() {
        return "every rank sends its block straight to the root";
    }

    @Override
    public int priority() {
        return 5;
    }

    @Override
    Schedule build(int p, int root, long blockBytes) {
        return GatherBuilders.linearGather(p, root, blockBytes);
    }
}
