package io.mpirunj.collectives.baseline;

import io.mpirunj.collectives.builders.BarrierBuilders;

/**
 * Dissemination barrier: in round {@code k} every rank sends an empty message to
 * {@code (rank + 2^k) mod p} and receives one from {@code (rank - 2^k) mod p}. After
 * {@code ceil(log2 p)} rounds every rank has heard, directly or through others, from every rank.
 *
 * <p>Contract: any p (1 returns at once); no data. Cost: {@code ceil(log2 p)} steps, each rank
 * sending and receiving {@code ceil(log2 p)} zero-byte messages.
 *
 * <p>Reference: D. Hensgen, R. Finkel, U. Manber, "Two algorithms for barrier synchronization",
 * Int. J. Parallel Programming 17(1), 1988; Open MPI {@code ompi_coll_base_barrier_intra_bruck}.
 *
 * <pre>
 * p = 4     rank 0   rank 1   rank 2   rank 3
 * round 0   0 -> 1   1 -> 2   2 -> 3   3 -> 0
 * round 1   0 -> 2   1 -> 3   2 -> 0   3 -> 1
 * </pre>
 */
public final class DisseminationBarrier extends ScheduledBarrier {
    public DisseminationBarrier() {
        super("dissemination", "dissemination: ceil(log2 p) rounds of empty messages at distance 1, 2, 4, ...", 10,
                BarrierBuilders::dissemination);
    }
}
