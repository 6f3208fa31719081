package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.ElementType;
import io.mpirunj.Request;
import io.mpirunj.collectives.runner.ScheduleBuffers;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/** What the barriers share: their schedule of empty messages, from the cache, run by the generic runner. */
abstract class ScheduledBarrier implements CollectiveAlgorithm.Barrier, SimulatedBaseline {
    private static final Buffer EMPTY = Buffer.allocate(ElementType.BYTE, 0);

    @Override
    public final Request barrier(CollChannel ch, boolean blocking) {
        int p = ch.size();
        return Scheduled.go(blocking, ch, Collective.BARRIER, name(), -1, 0, "", ScheduleBuffers.of(EMPTY),
                CollTags.BARRIER, () -> schedule(p, -1, 0));
    }
}
