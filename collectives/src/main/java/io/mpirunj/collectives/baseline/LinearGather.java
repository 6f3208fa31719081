package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.collectives.builders.GatherBuilders;
import io.mpirunj.collectives.runner.ScheduleBuffers;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;

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
public final class LinearGather implements CollectiveAlgorithm.Gather {
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
    public void gather(CollChannel ch, Buffer send, Buffer recv, int root) {
        int p = ch.size();
        long bytes = send.byteLength();
        Scheduled.run(ch, Collective.GATHER, name(), root, bytes, "", ScheduleBuffers.of(send, recv),
                CollTags.GATHER, () -> GatherBuilders.linearGather(p, root, bytes));
    }

    @Override
    public Request igather(CollChannel ch, Buffer send, Buffer recv, int root) {
        int p = ch.size();
        long bytes = send.byteLength();
        return Scheduled.start(ch, Collective.GATHER, name(), root, bytes, "", ScheduleBuffers.of(send, recv),
                CollTags.GATHER, () -> GatherBuilders.linearGather(p, root, bytes));
    }
}
