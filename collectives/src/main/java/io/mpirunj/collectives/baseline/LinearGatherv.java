package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/**
 * Linear gather with per-rank counts: as {@link LinearGather}, with rank {@code i}'s block landing
 * at {@code recv[displs[i], displs[i] + recvCounts[i])} on the root.
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
    public void gatherv(CollChannel ch, Buffer send, Buffer recv, int[] recvCounts, int[] displs, int root) {
        linear(ch, send, recv, recvCounts, displs, root, CollTags.GATHERV);
    }

    /** The linear gather, shared with {@link LinearGather}. */
    static void linear(CollChannel ch, Buffer send, Buffer recv, int[] recvCounts, int[] displs, int root, int tag) {
        int p = ch.size();
        if (ch.rank() != root) {
            ch.send(send, root, tag);
            return;
        }
        Request[] reqs = new Request[p - 1];
        int k = 0;
        for (int i = 0; i < p; i++) {
            if (i != root) {
                reqs[k++] = ch.irecv(recv.slice(displs[i], recvCounts[i]), i, tag);
            }
        }
        recv.slice(displs[root], recvCounts[root]).copyFrom(send);
        Request.waitAll(reqs);
    }
}
