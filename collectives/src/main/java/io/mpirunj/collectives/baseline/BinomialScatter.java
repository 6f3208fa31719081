package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/**
 * Binomial-tree scatter, the mirror of {@link BinomialGather}. With ranks renumbered relative to
 * the root ({@code v = (rank - root) mod p}), rank {@code v} receives the blocks of its whole
 * subtree {@code [v, v + size)} from its parent in one message, forwards each child's subtree
 * (largest first) and keeps block 0. The root first rotates its send buffer into virtual order (a
 * local copy, skipped when the root is rank 0).
 *
 * <p>Contract: as {@link LinearScatter}. Cost: {@code ceil(log2 p)} steps; the root sends
 * {@code (p - 1) n} elements in {@code ceil(log2 p)} messages, and inner ranks hold a temporary of
 * their subtree's size.
 *
 * <p>Reference: Open MPI {@code ompi_coll_base_scatter_intra_binomial}; MPICH
 * {@code MPIR_Scatter_intra_binomial}.
 *
 * <pre>
 * p = 4, root 0   rank 0             rank 1     rank 2             rank 3
 * step 1          send -> 2 [2,3]    .          recv &lt;- 0 [2,3]    .
 * step 2          send -> 1 [1]      recv &lt;- 0  send -> 3 [3]      recv &lt;- 2
 * </pre>
 */
public final class BinomialScatter implements CollectiveAlgorithm.Scatter {
    @Override
    public String name() {
        return "binomial";
    }

    @Override
    public String description() {
        return "binomial tree: each rank receives its whole subtree's blocks in one message";
    }

    @Override
    public int priority() {
        return 10;
    }

    @Override
    public void scatter(CollChannel ch, Buffer send, Buffer recv, int root) {
        int p = ch.size();
        int n = recv.count();
        int v = Binomial.toVirtual(ch.rank(), root, p);
        int size = Binomial.subtreeSize(v, p);
        Buffer tmp;
        if (v == 0) {
            if (root == 0) {
                tmp = send.slice(0, p * n);
            } else { // virtual block i is rank (i + root) mod p's
                tmp = recv.allocateLike(p * n);
                tmp.slice(0, (p - root) * n).copyFrom(send.slice(root * n, (p - root) * n));
                tmp.slice((p - root) * n, root * n).copyFrom(send.slice(0, root * n));
            }
        } else if (size == 1) {
            ch.recv(recv, Binomial.toReal(Binomial.parent(v), root, p), CollTags.SCATTER);
            return;
        } else {
            tmp = recv.allocateLike(size * n);
            ch.recv(tmp, Binomial.toReal(Binomial.parent(v), root, p), CollTags.SCATTER);
        }
        int limit = Binomial.childLimit(v, p);
        int children = 0;
        for (int mask = limit >> 1; mask > 0; mask >>= 1) {
            if (v + mask < p) {
                children++;
            }
        }
        Request[] reqs = new Request[children];
        int k = 0;
        for (int mask = limit >> 1; mask > 0; mask >>= 1) {
            int c = v + mask;
            if (c < p) {
                reqs[k++] = ch.isend(tmp.slice(mask * n, Binomial.subtreeSize(c, p) * n), Binomial.toReal(c, root, p),
                        CollTags.SCATTER);
            }
        }
        recv.copyFrom(tmp.slice(0, n));
        Request.waitAll(reqs);
    }
}
