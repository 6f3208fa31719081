package io.mpirunj.collectives.baseline;

import io.mpirunj.collectives.builders.AlltoallBuilders;
import io.mpirunj.collectives.schedule.Schedule;

/**
 * Linear all-to-all with per-pair counts: the schedule of {@link LinearAlltoall} (every receive
 * and send posted at once, own block copied locally, then wait for all) with the blocks laid out
 * by counts and displacements as in {@link PairwiseAlltoallv}.
 *
 * <p>Contract: as {@link PairwiseAlltoallv}. Cost: 1 step if every rank can inject all its
 * messages at once; a rank sends {@code sum(sendCounts) - sendCounts[rank]} elements.
 *
 * <p>Reference: Open MPI {@code ompi_coll_base_alltoallv_intra_basic_linear}.
 *
 * <pre>
 * p = 4    rank 0              rank 1              rank 2              rank 3
 * post     &lt;-1,2,3  ->1,2,3    &lt;-0,2,3  ->0,2,3    &lt;-0,1,3  ->0,1,3    &lt;-0,1,2  ->0,1,2
 * local    0:0                 1:1                 2:2                 3:3
 * wait     all 6               all 6               all 6               all 6
 * </pre>
 */
public final class LinearAlltoallv extends ScheduledAlltoallv {
    @Override
    public String name() {
        return "linear";
    }

    @Override
    public String description() {
        return "post every receive and send at once (per-pair counts), then wait for all";
    }

    @Override
    Schedule build(int p) {
        return AlltoallBuilders.linear(p, 0, null);
    }
}
