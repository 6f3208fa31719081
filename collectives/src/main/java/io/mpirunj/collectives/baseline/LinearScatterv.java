package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/**
 * Linear scatter with per-rank counts: as {@link LinearScatter}, rank {@code i} getting
 * {@code send[displs[i], displs[i] + sendCounts[i])} of the root's buffer into the start of its
 * recv.
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
    public void scatterv(CollChannel ch, Buffer send, int[] sendCounts, int[] displs, Buffer recv, int root) {
        linear(ch, send, sendCounts, displs, recv, root, CollTags.SCATTERV);
    }

    /** The linear scatter, shared with {@link LinearScatter}. */
    static void linear(CollChannel ch, Buffer send, int[] sendCounts, int[] displs, Buffer recv, int root, int tag) {
        int p = ch.size();
        if (ch.rank() != root) {
            ch.recv(recv, root, tag);
            return;
        }
        Request[] reqs = new Request[p - 1];
        int k = 0;
        for (int d = 1; d < p; d++) {
            int i = (root + d) % p;
            reqs[k++] = ch.isend(send.slice(displs[i], sendCounts[i]), i, tag);
        }
        recv.slice(0, sendCounts[root]).copyFrom(send.slice(displs[root], sendCounts[root]));
        Request.waitAll(reqs);
    }
}
