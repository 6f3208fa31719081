package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.collectives.runner.ScheduleBuffers;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/**
 * What the all-to-all baselines share: their builder's schedule for p blocks of equal size, run
 * (blocking) or started (non-blocking) by {@link Scheduled}. A subclass declares its name and builder.
 */
abstract class ScheduledAlltoall extends DeclaredBaseline<ScheduledAlltoall.Builder>
        implements CollectiveAlgorithm.Alltoall {

    /** The schedule for {@code p} ranks exchanging blocks of {@code blockBytes}. */
    @FunctionalInterface
    interface Builder {
        Schedule build(int p, long blockBytes);
    }

    ScheduledAlltoall(String name, String description, int priority, Builder builder) {
        super(name, description, priority, builder);
    }

    @Override
    public final Schedule schedule(int ranks, int root, long bytes) {
        return builder.build(ranks, bytes);
    }

    @Override
    public final Request alltoall(CollChannel ch, Buffer send, Buffer recv, boolean blocking) {
        int p = ch.size();
        long blockBytes = (long) (send.count() / p) * send.type().bytes();
        return Scheduled.go(blocking, ch, Collective.ALLTOALL, name(), -1, blockBytes, "",
                ScheduleBuffers.of(send, recv), CollTags.ALLTOALL, () -> builder.build(p, blockBytes));
    }
}
