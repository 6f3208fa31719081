package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/**
 * Linear (flat-tree) broadcast: the root posts a send of the whole buffer to every other rank and
 * waits for all of them; every other rank receives once from the root.
 *
 * <p>Contract: any p and root. Cost: 1 step in the model where the root can inject {@code p - 1}
 * messages at once, {@code p - 1} steps on a one-port root; the root sends {@code (p - 1) n} bytes.
 * Good for small p or tiny messages; the baseline for every tree.
 *
 * <p>Reference: Open MPI {@code ompi_coll_base_bcast_intra_basic_linear}.
 *
 * <pre>
 * p = 4, root 0   rank 0                 rank 1     rank 2     rank 3
 * step 1          send -> 1, 2, 3        recv &lt;- 0  recv &lt;- 0  recv &lt;- 0
 * </pre>
 */
public final class LinearBcast implements CollectiveAlgorithm.Bcast {
    @Override
    public String name() {
        return "linear-p2p";
    }

    @Override
    public String description() {
        return "flat tree on point-to-point messages: the root sends the whole buffer to each rank";
    }

    @Override
    public void bcast(CollChannel ch, Buffer buf, int root) {
        int p = ch.size();
        int r = ch.rank();
        if (r != root) {
            ch.recv(buf, root, CollTags.BCAST);
            return;
        }
        if (p == 1) {
            return;
        }
        Request[] sends = new Request[p - 1];
        int i = 0;
        for (int d = 1; d < p; d++) {
            sends[i++] = ch.isend(buf, (root + d) % p, CollTags.BCAST);
        }
        Request.waitAll(sends);
    }
}
