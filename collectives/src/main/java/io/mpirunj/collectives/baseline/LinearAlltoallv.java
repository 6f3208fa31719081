package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
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
        linear(ch, send, sendCounts, sendDispls, recv, recvCounts, recvDispls, CollTags.ALLTOALLV);
    }

    /** The linear exchange, shared with {@link LinearAlltoall}. */
    static void linear(CollChannel ch, Buffer send, int[] sendCounts, int[] sendDispls, Buffer recv,
            int[] recvCounts, int[] recvDispls, int tag) {
        int p = ch.size();
        int r = ch.rank();
        Request[] reqs = new Request[2 * (p - 1)];
        int i = 0;
        for (int s = 1; s < p; s++) {
            int from = (r - s + p) % p;
            reqs[i++] = ch.irecv(recv.slice(recvDispls[from], recvCounts[from]), from, tag);
        }
        for (int s = 1; s < p; s++) {
            int to = (r + s) % p;
            reqs[i++] = ch.isend(send.slice(sendDispls[to], sendCounts[to]), to, tag);
        }
        recv.slice(recvDispls[r], recvCounts[r]).copyFrom(send.slice(sendDispls[r], sendCounts[r]));
        Request.waitAll(reqs);
    }
}
