package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.collectives.builders.GatherBuilders;
import io.mpirunj.collectives.runner.ScheduleBuffers;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/**
 * Ring all-gather with per-rank counts: the schedule of {@link RingAllgather}, block {@code i}
 * being {@code recvCounts[i]} elements at {@code displs[i]} of every rank's recv: the
 * {@link GatherBuilders#ringAllgather} schedule of one-byte blocks, placed by the counts.
 *
 * <p>Contract: rank {@code i} sends {@code send.count() == recvCounts[i]} elements; every rank
 * passes the same counts and displacements. Cost: {@code p - 1} steps; every rank sends
 * {@code sum(recvCounts) - recvCounts[(rank + 1) mod p]} elements to its right neighbour.
 *
 * <p>Reference: Open MPI {@code ompi_coll_base_allgatherv_intra_ring}.
 *
 * <pre>
 * p = 4    rank 0            rank 1            rank 2            rank 3
 * step 0   [0]->1, [3]&lt;-3    [1]->2, [0]&lt;-0    [2]->3, [1]&lt;-1    [3]->0, [2]&lt;-2
 * step 1   [3]->1, [2]&lt;-3    [0]->2, [3]&lt;-0    [1]->3, [0]&lt;-1    [2]->0, [1]&lt;-2
 * step 2   [2]->1, [1]&lt;-3    [3]->2, [2]&lt;-0    [0]->3, [3]&lt;-1    [1]->0, [0]&lt;-2
 * </pre>
 */
public final class RingAllgatherv implements CollectiveAlgorithm.Allgatherv {
    @Override
    public String name() {
        return "ring";
    }

    @Override
    public String description() {
        return "ring: p-1 steps, each passing one block to the right neighbour";
    }

    @Override
    public int priority() {
        return 10;
    }

    @Override
    public Request allgatherv(CollChannel ch, Buffer send, Buffer recv, int[] recvCounts, int[] displs,
            boolean blocking) {
        return Scheduled.go(blocking, ch, Collective.ALLGATHER, "ring-v", -1, 1, "",
                buffers(send, recv, recvCounts, displs), CollTags.ALLGATHERV,
                () -> GatherBuilders.ringAllgather(ch.size(), 1));
    }

    private static ScheduleBuffers buffers(Buffer send, Buffer recv, int[] recvCounts, int[] displs) {
        int[][] one = Scheduled.single(send);
        return new ScheduleBuffers(send, recv, one[0], one[1], recvCounts, displs);
    }
}
