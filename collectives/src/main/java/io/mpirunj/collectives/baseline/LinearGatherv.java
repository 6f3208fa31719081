package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.collectives.builders.GatherBuilders;
import io.mpirunj.collectives.runner.ScheduleBuffers;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/**
 * Linear gather with per-rank counts: as {@link LinearGather}, with rank {@code i}'s block landing
 * at {@code recv[displs[i], displs[i] + recvCounts[i])} on the root: the {@link GatherBuilders#linearGather}
 * schedule of one-byte blocks, placed by the counts, so one schedule serves every call.
 *
 * <p>Contract: rank {@code i} sends {@code send.count() == recvCounts[i]} elements; counts and
 * displacements are read on the root only; recv is not touched elsewhere. Cost: 1 step if the root
 * can take all messages at once, {@code p - 1} on a one-port root; the root receives
 * {@code sum(recvCounts) - recvCounts[root]} elements.
 *
 * <p>Reference: Open MPI {@code mca_coll_basic_gatherv_intra}.
 *
 * <pre>
 * p = 4, root 0   rank 0                  rank 1     rank 2     rank 3
 * step 1          recv &lt;- 1, 2, 3; 0:0    send -> 0  send -> 0  send -> 0
 * </pre>
 */
public final class LinearGatherv implements CollectiveAlgorithm.Gatherv {
    @Override
    public String name() {
        return "linear";
    }

    @Override
    public String description() {
        return "every rank sends its block straight to the root";
    }

    @Override
    public int priority() {
        return 10;
    }

    @Override
    public Request gatherv(CollChannel ch, Buffer send, Buffer recv, int[] recvCounts, int[] displs, int root,
            boolean blocking) {
        return Scheduled.go(blocking, ch, Collective.GATHER, "linear-v", root, 1, "",
                buffers(ch, send, recv, recvCounts, displs, root), CollTags.GATHERV,
                () -> GatherBuilders.linearGather(ch.size(), root, 1));
    }

    /** Send is block 0 of its layout; the root's recv is laid out by the counts (read on the root only). */
    private static ScheduleBuffers buffers(CollChannel ch, Buffer send, Buffer recv, int[] recvCounts, int[] displs,
            int root) {
        int[][] one = Scheduled.single(send);
        boolean atRoot = ch.rank() == root;
        return new ScheduleBuffers(send, recv == null ? send : recv, one[0], one[1], atRoot ? recvCounts : null,
                atRoot ? displs : null);
    }
}
