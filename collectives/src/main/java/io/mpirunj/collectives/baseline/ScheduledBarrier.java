package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.ElementType;
import io.mpirunj.Request;
import io.mpirunj.collectives.runner.ScheduleBuffers;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import java.util.function.IntFunction;

/**
 * What the barriers share: their builder's schedule of empty messages for p ranks, from the cache, run by the
 * generic runner. A subclass declares its name and builder.
 */
abstract class ScheduledBarrier extends DeclaredBaseline<IntFunction<Schedule>> implements CollectiveAlgorithm.Barrier {
    private static final Buffer EMPTY = Buffer.allocate(ElementType.BYTE, 0);

    ScheduledBarrier(String name, String description, int priority, IntFunction<Schedule> builder) {
        super(name, description, priority, builder);
    }

    @Override
    public final Schedule schedule(int ranks, int root, long bytes) {
        return builder.apply(ranks);
    }

    @Override
    public final Request barrier(CollChannel ch, boolean blocking) {
        int p = ch.size();
        return Scheduled.go(blocking, ch, Collective.BARRIER, name(), -1, 0, "", ScheduleBuffers.of(EMPTY),
                CollTags.BARRIER, () -> builder.apply(p));
    }
}
