package io.mpirunj.collectives.baseline;

import io.mpirunj.collectives.builders.AlltoallBuilders;
import io.mpirunj.collectives.schedule.Schedule;

/**
 * Bruck all-to-all ({@link AlltoallBuilders#bruck}): ceil(log2 p) rounds of combined messages whose
 * blocks are forwarded through intermediate ranks' scratch memory. Fewer, larger messages than the
 * pairwise exchange: for small blocks. Cost: ceil(log2 p) messages per rank, each of about p/2 blocks.
 */
public final class BruckAlltoall extends ScheduledAlltoall {
    @Override
    public String name() {
        return "bruck";
    }

    @Override
    public String description() {
        return "Bruck: ceil(log2 p) rounds of combined messages through intermediate ranks (small blocks)";
    }

    @Override
    Schedule build(int p, long blockBytes) {
        return AlltoallBuilders.bruck(p, blockBytes, null);
    }
}
