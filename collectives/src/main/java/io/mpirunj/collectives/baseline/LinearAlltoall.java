package io.mpirunj.collectives.baseline;

import io.mpirunj.collectives.builders.AlltoallBuilders;

/**
 * Linear all-to-all: post a receive from every other rank, then a send to every other rank, copy
 * the own block locally and wait for everything. All {@code 2(p - 1)} messages of a rank are in
 * flight at once, which is fastest for small blocks and hardest on memory and the network for
 * large ones.
 *
 * <p>Contract: as {@link PairwiseAlltoall}. Cost: 1 step if every rank can inject all its messages
 * at once; each rank sends and receives {@code (p - 1) b} elements, {@code b = count / p}.
 *
 * <p>Reference: Open MPI {@code ompi_coll_base_alltoall_intra_basic_linear}.
 *
 * <pre>
 * p = 4    rank 0              rank 1              rank 2              rank 3
 * post     &lt;-1,2,3  ->1,2,3    &lt;-0,2,3  ->0,2,3    &lt;-0,1,3  ->0,1,3    &lt;-0,1,2  ->0,1,2
 * local    0:0                 1:1                 2:2                 3:3
 * wait     all 6               all 6               all 6               all 6
 * </pre>
 */
public final class LinearAlltoall extends ScheduledAlltoall {
    public LinearAlltoall() {
        super("linear", "post every receive and send at once, then wait for all", 0,
                (p, blockBytes) -> AlltoallBuilders.linear(p, blockBytes, null));
    }
}
