package io.mpirunj.collectives.baseline;

import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/**
 * Linear (flat-tree) broadcast: the root posts a send of the whole buffer to every other rank and
 * waits for all of them; every other rank receives once from the root. Runs as the
 * {@link io.mpirunj.collectives.multicast.SequentialMulticast} schedule over the communicator rotated to start at the root.
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
public final class LinearBcast extends P2pTree implements CollectiveAlgorithm.Bcast {
    public LinearBcast() {
        super(false);
    }

    @Override
    public String description() {
        return "flat tree on point-to-point messages: the root sends the whole buffer to each rank";
    }
}
