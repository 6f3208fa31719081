package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.collectives.runner.ScheduleBuffers;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/**
 * What the all-to-all-v baselines share: one schedule of their all-to-all builder for every call
 * (the counts and displacements place the blocks), run (blocking) or started (non-blocking) by
 * {@link Scheduled}. A subclass names its builder.
 */
abstract class ScheduledAlltoallv implements CollectiveAlgorithm.Alltoallv {

    /** The all-to-all schedule for {@code p} ranks whose blocks the counts will size. */
    abstract Schedule build(int p);

    @Override
    public final Request alltoallv(CollChannel ch, Buffer send, int[] sendCounts, int[] sendDispls, Buffer recv,
            int[] recvCounts, int[] recvDispls, boolean blocking) {
        int p = ch.size();
        return Scheduled.go(blocking, ch, Collective.ALLTOALL, name() + "-v", -1, 0, "",
                new ScheduleBuffers(send, recv, sendCounts, sendDispls, recvCounts, recvDispls), CollTags.ALLTOALLV,
                () -> build(p));
    }
}
