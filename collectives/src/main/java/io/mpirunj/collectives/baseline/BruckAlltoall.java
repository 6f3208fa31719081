package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.collectives.builders.AlltoallBuilders;
import io.mpirunj.collectives.runner.ScheduleBuffers;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/**
 * Bruck all-to-all ({@link AlltoallBuilders#bruck}): ceil(log2 p) rounds of combined messages whose
 * blocks are forwarded through intermediate ranks' scratch memory. Fewer, larger messages than the
 * pairwise exchange: for small blocks. Cost: ceil(log2 p) messages per rank, each of about p/2 blocks.
 */
public final class BruckAlltoall implements CollectiveAlgorithm.Alltoall {
    @Override
    public String name() {
        return "bruck";
    }

    @Override
    public String description() {
        return "Bruck: ceil(log2 p) rounds of combined messages through intermediate ranks (small blocks)";
    }

    @Override
    public void alltoall(CollChannel ch, Buffer send, Buffer recv) {
        int p = ch.size();
        long blockBytes = (long) (send.count() / p) * send.type().bytes();
        Scheduled.run(ch, Collective.ALLTOALL, name(), -1, blockBytes, "", ScheduleBuffers.of(send, recv),
                CollTags.ALLTOALL, () -> AlltoallBuilders.bruck(p, blockBytes, null));
    }

    @Override
    public Request ialltoall(CollChannel ch, Buffer send, Buffer recv) {
        int p = ch.size();
        long blockBytes = (long) (send.count() / p) * send.type().bytes();
        return Scheduled.start(ch, Collective.ALLTOALL, name(), -1, blockBytes, "", ScheduleBuffers.of(send, recv),
                CollTags.ALLTOALL, () -> AlltoallBuilders.bruck(p, blockBytes, null));
    }
}
