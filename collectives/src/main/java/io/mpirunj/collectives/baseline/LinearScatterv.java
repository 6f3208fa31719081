package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.collectives.builders.GatherBuilders;
import io.mpirunj.collectives.runner.ScheduleBuffers;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/**
 * Linear scatter with per-rank counts: as {@link LinearScatter}, rank {@code i} getting
 * {@code send[displs[i], displs[i] + sendCounts[i])} of the root's buffer into the start of its
 * recv: the {@link GatherBuilders#linearScatter} schedule of one-byte blocks, placed by the counts.
 *
 * <p>Contract: {@code sendCounts[i] <= recv.count()} on rank {@code i} (the rest of recv is left as
 * it was); counts and displacements are read on the root only; send is not touched elsewhere.
 * Cost: 1 step if the root can inject all messages at once, {@code p - 1} on a one-port root; the
 * root sends {@code sum(sendCounts) - sendCounts[root]} elements.
 *
 * <p>Reference: Open MPI {@code mca_coll_basic_scatterv_intra}.
 *
 * <pre>
 * p = 4, root 0   rank 0                  rank 1     rank 2     rank 3
 * step 1          send -> 1, 2, 3; 0:0    recv &lt;- 0  recv &lt;- 0  recv &lt;- 0
 * </pre>
 */
public final class LinearScatterv implements CollectiveAlgorithm.Scatterv {
    @Override
    public String name() {
        return "linear";
    }

    @Override
    public String description() {
        return "the root sends each rank its block directly";
    }

    @Override
    public int priority() {
        return 10;
    }

    @Override
    public Request scatterv(CollChannel ch, Buffer send, int[] sendCounts, int[] displs, Buffer recv, int root,
            boolean blocking) {
        return Scheduled.go(blocking, ch, Collective.SCATTER, "linear-v", root, 1, "",
                buffers(ch, send, sendCounts, displs, recv, root), CollTags.SCATTERV,
                () -> GatherBuilders.linearScatter(ch.size(), root, 1));
    }

    /**
     * The root's send is laid out by the counts; recv is block 0, as long as the root's own count there
     * and the whole buffer elsewhere (a shorter message leaves the rest alone).
     */
    private static ScheduleBuffers buffers(CollChannel ch, Buffer send, int[] sendCounts, int[] displs, Buffer recv,
            int root) {
        boolean atRoot = ch.rank() == root;
        int[] recvCount = {atRoot ? sendCounts[root] : recv.count()};
        return new ScheduleBuffers(send == null ? recv : send, recv, atRoot ? sendCounts : null,
                atRoot ? displs : null, recvCount, new int[] {0});
    }
}
