package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.collectives.builders.AlltoallBuilders;
import io.mpirunj.collectives.runner.ScheduleBuffers;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;

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
public final class LinearAlltoallv implements CollectiveAlgorithm.Alltoallv {
    @Override
    public String name() {
        return "linear";
    }

    @Override
    public String description() {
        return "post every receive and send at once (per-pair counts), then wait for all";
    }

    @Override
    public void alltoallv(CollChannel ch, Buffer send, int[] sendCounts, int[] sendDispls, Buffer recv,
            int[] recvCounts, int[] recvDispls) {
        int p = ch.size();
        // One schedule for every call: the counts and displacements place the blocks.
        Scheduled.run(ch, Collective.ALLTOALL, "linear-v", -1, 0, "", new ScheduleBuffers(send, recv, sendCounts,
                sendDispls, recvCounts, recvDispls), CollTags.ALLTOALLV, () -> AlltoallBuilders.linear(p, 0, null));
    }

    @Override
    public Request ialltoallv(CollChannel ch, Buffer send, int[] sendCounts, int[] sendDispls, Buffer recv,
            int[] recvCounts, int[] recvDispls) {
        int p = ch.size();
        // One schedule for every call: the counts and displacements place the blocks.
        return Scheduled.start(ch, Collective.ALLTOALL, "linear-v", -1, 0, "", new ScheduleBuffers(send, recv, sendCounts,
                sendDispls, recvCounts, recvDispls), CollTags.ALLTOALLV, () -> AlltoallBuilders.linear(p, 0, null));
    }
}
