package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.collectives.runner.ScheduleBuffers;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/**
 * What the gather and scatter baselines share: their builder's schedule for one block of
 * {@code blockBytes} per rank around {@code root}, run (blocking) or started (non-blocking) by
 * {@link Scheduled}. A subclass names its builder.
 */
abstract class ScheduledRooted implements CollectiveAlgorithm, SimulatedBaseline {

    /** The schedule for {@code p} ranks, rooted at {@code root}, one block of {@code blockBytes} each. */
    abstract Schedule build(int p, int root, long blockBytes);

    @Override
    public final Schedule schedule(int ranks, int root, long bytes) {
        return build(ranks, root, bytes);
    }

    final Request go(boolean blocking, CollChannel ch, Collective collective, int tag, Buffer send, Buffer recv,
            long blockBytes, int root) {
        int p = ch.size();
        return Scheduled.go(blocking, ch, collective, name(), root, blockBytes, "", ScheduleBuffers.of(send, recv), tag,
                () -> build(p, root, blockBytes));
    }

    /** A gather: every rank's send is one block; the root's recv holds them in rank order. */
    abstract static class Gather extends ScheduledRooted implements CollectiveAlgorithm.Gather {
        @Override
        public final Request gather(CollChannel ch, Buffer send, Buffer recv, int root, boolean blocking) {
            return go(blocking, ch, Collective.GATHER, CollTags.GATHER, send, recv, send.byteLength(), root);
        }
    }

    /** A scatter: the root's send holds one block per rank in rank order; every rank's recv gets its own. */
    abstract static class Scatter extends ScheduledRooted implements CollectiveAlgorithm.Scatter {
        @Override
        public final Request scatter(CollChannel ch, Buffer send, Buffer recv, int root, boolean blocking) {
            return go(blocking, ch, Collective.SCATTER, CollTags.SCATTER, send, recv, recv.byteLength(), root);
        }
    }
}
