package io.mpirunj.collectives.baseline;

import io.mpirunj.collectives.builders.AlltoallBuilders;

/**
 * Bruck all-to-all ({@link AlltoallBuilders#bruck}): ceil(log2 p) rounds of combined messages whose
 * blocks are forwarded through intermediate ranks' scratch memory. Fewer, larger messages than the
 * pairwise exchange: for small blocks. Cost: ceil(log2 p) messages per rank, each of about p/2 blocks.
 */
public final class BruckAlltoall extends ScheduledAlltoall {
    public BruckAlltoall() {
        super("bruck", "Bruck: ceil(log2 p) rounds of combined messages through intermediate ranks (small blocks)", 0,
                (p, blockBytes) -> AlltoallBuilders.bruck(p, blockBytes, null));
    }
}
