package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.collectives.builders.GatherBuilders;
import io.mpirunj.collectives.runner.ScheduleBuffers;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/**
 * Ring all-gather: each rank copies its own block into place, then in step
 * {@code s = 0 .. p-2} passes block {@code (rank - s) mod p} to its right neighbour while receiving
 * block {@code (rank - s - 1) mod p} from its left one, so every block travels once around the ring.
 *
 * <p>Contract: every rank sends {@code n = send.count()} elements; recv holds {@code p n}, block
 * {@code i} from rank {@code i}. Cost: {@code p - 1} steps; every rank sends and receives
 * {@code (p - 1) n} elements, only to and from its neighbours (bandwidth-optimal, latency linear
 * in p).
 *
 * <p>Reference: Open MPI {@code ompi_coll_base_allgather_intra_ring}; Thakur, Rabenseifner, Gropp,
 * IJHPCA 19(1), 2005.
 *
 * <pre>
 * p = 4    rank 0            rank 1            rank 2            rank 3
 * step 0   [0]->1, [3]&lt;-3    [1]->2, [0]&lt;-0    [2]->3, [1]&lt;-1    [3]->0, [2]&lt;-2
 * step 1   [3]->1, [2]&lt;-3    [0]->2, [3]&lt;-0    [1]->3, [0]&lt;-1    [2]->0, [1]&lt;-2
 * step 2   [2]->1, [1]&lt;-3    [3]->2, [2]&lt;-0    [0]->3, [3]&lt;-1    [1]->0, [0]&lt;-2
 * </pre>
 */
public final class RingAllgather implements CollectiveAlgorithm.Allgather, SimulatedBaseline {
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
    public Request allgather(CollChannel ch, Buffer send, Buffer recv, boolean blocking) {
        int p = ch.size();
        long bytes = send.byteLength();
        return Scheduled.go(blocking, ch, Collective.ALLGATHER, name(), -1, bytes, "", ScheduleBuffers.of(send, recv),
                CollTags.ALLGATHER, () -> schedule(p, -1, bytes));
    }

    @Override
    public Schedule schedule(int ranks, int root, long bytes) {
        return GatherBuilders.ringAllgather(ranks, bytes);
    }
}
