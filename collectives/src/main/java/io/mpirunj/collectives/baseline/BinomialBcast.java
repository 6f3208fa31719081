package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/**
 * Binomial-tree broadcast on point-to-point messages. With ranks renumbered relative to the root
 * ({@code v = (rank - root) mod p}), rank {@code v} receives the whole buffer from
 * {@code v - lowbit(v)} and then sends it to {@code v + m} for each power of two {@code m < lowbit(v)}
 * (largest first, so the biggest subtree starts earliest).
 *
 * <p>Contract: any p and root; the root's buffer is copied into every rank's buffer. Cost:
 * {@code ceil(log2 p)} steps; the root sends {@code ceil(log2 p)} messages of the full buffer, and
 * {@code p - 1} messages of {@code n} bytes cross the network in all.
 *
 * <p>Reference: MPICH {@code MPIR_Bcast_intra_binomial}; Open MPI
 * {@code ompi_coll_base_bcast_intra_binomial}.
 *
 * <pre>
 * p = 4, root 0   rank 0        rank 1     rank 2        rank 3
 * step 1          send -> 2     .          recv &lt;- 0     .
 * step 2          send -> 1     recv &lt;- 0  send -> 3     recv &lt;- 2
 * </pre>
 */
public final class BinomialBcast implements CollectiveAlgorithm.Bcast {
    @Override
    public String name() {
        return "binomial-p2p";
    }

    @Override
    public String description() {
        return "binomial tree on point-to-point messages: ceil(log2 p) steps of the whole buffer";
    }

    @Override
    public int priority() {
        return 10;
    }

    @Override
    public void bcast(CollChannel ch, Buffer buf, int root) {
        int p = ch.size();
        int[] ranks = new int[p];
        for (int v = 0; v < p; v++) {
            ranks[v] = Binomial.toReal(v, root, p);
        }
        treeBcast(ch, buf, ranks, Binomial.toVirtual(ch.rank(), root, p), CollTags.BCAST);
    }

    /**
     * Broadcast from {@code ranks[0]} down a binomial tree over the listed ranks; {@code me} is this
     * rank's index in {@code ranks}. Shared with {@link BinomialP2pMulticast}.
     */
    static void treeBcast(CollChannel ch, Buffer buf, int[] ranks, int me, int tag) {
        int m = ranks.length;
        if (me != 0) {
            ch.recv(buf, ranks[Binomial.parent(me)], tag);
        }
        int limit = Binomial.childLimit(me, m);
        int children = 0;
        for (int mask = limit >> 1; mask > 0; mask >>= 1) {
            if (me + mask < m) {
                children++;
            }
        }
        if (children == 0) {
            return;
        }
        Request[] sends = new Request[children];
        int i = 0;
        for (int mask = limit >> 1; mask > 0; mask >>= 1) {
            if (me + mask < m) {
                sends[i++] = ch.isend(buf, ranks[me + mask], tag);
            }
        }
        Request.waitAll(sends);
    }
}
