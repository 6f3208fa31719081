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
final class ScheduledRooted {

    private ScheduledRooted() {
    }

    /** The schedule for {@code p} ranks, rooted at {@code root}, one block of {@code blockBytes} each. */
    @FunctionalInterface
    interface Builder {
        Schedule build(int p, int root, long blockBytes);
    }

    private static Request go(boolean blocking, CollChannel ch, Collective collective, String name, int tag,
            Buffer send, Buffer recv, long blockBytes, int root, Builder builder) {
        int p = ch.size();
        return Scheduled.go(blocking, ch, collective, name, root, blockBytes, "", ScheduleBuffers.of(send, recv), tag,
                () -> builder.build(p, root, blockBytes));
    }

    /** A gather: every rank's send is one block; the root's recv holds them in rank order. */
    abstract static class Gather implements CollectiveAlgorithm.Gather {
        abstract Schedule build(int p, int root, long blockBytes);

        @Override
        public final void gather(CollChannel ch, Buffer send, Buffer recv, int root) {
            go(true, ch, Collective.GATHER, name(), CollTags.GATHER, send, recv, send.byteLength(), root, this::build);
        }

        @Override
        public final Request igather(CollChannel ch, Buffer send, Buffer recv, int root) {
            return go(false, ch, Collective.GATHER, name(), CollTags.GATHER, send, recv, send.byteLength(), root,
                    this::build);
        }
    }

    /** A scatter: the root's send holds one block per rank in rank order; every rank's recv gets its own. */
    abstract static class Scatter implements CollectiveAlgorithm.Scatter {
        abstract Schedule build(int p, int root, long blockBytes);

        @Override
        public final void scatter(CollChannel ch, Buffer send, Buffer recv, int root) {
            go(true, ch, Collective.SCATTER, name(), CollTags.SCATTER, send, recv, recv.byteLength(), root,
                    this::build);
        }

        @Override
        public final Request iscatter(CollChannel ch, Buffer send, Buffer recv, int root) {
            return go(false, ch, Collective.SCATTER, name(), CollTags.SCATTER, send, recv, recv.byteLength(), root,
                    this::build);
        }
    }
}
