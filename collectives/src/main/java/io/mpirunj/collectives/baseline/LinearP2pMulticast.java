package io.mpirunj.collectives.baseline;

import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/**
 * Linear multicast on point-to-point messages: the root sends the whole buffer to every group rank
 * (other than itself) and waits for all the sends; each group rank receives once from the root.
 *
 * <p>Contract: called by the root and every listed rank with the same root and group; the group
 * may include the root. Cost, with {@code m} group ranks other than the root: 1 step if the root
 * injects all at once, {@code m} on a one-port root; the root sends {@code m n} bytes.
 *
 * <p>Reference: the flat tree (Open MPI {@code ompi_coll_base_bcast_intra_basic_linear}) over a
 * subgroup.
 *
 * <pre>
 * root 0, group {1, 2, 3}
 *          rank 0               rank 1     rank 2     rank 3
 * step 1   send -> 1, 2, 3      recv &lt;- 0  recv &lt;- 0  recv &lt;- 0
 * </pre>
 */
public final class LinearP2pMulticast extends P2pTree implements CollectiveAlgorithm.Multicast {
    public LinearP2pMulticast() {
        super(false);
    }

    @Override
    public String description() {
        return "flat tree: the root sends the whole buffer to each group rank";
    }
}
