package io.mpirunj.collectives.baseline;

import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/**
 * Binomial-tree broadcast on point-to-point messages. With ranks renumbered relative to the root
 * ({@code v = (rank - root) mod p}), rank {@code v} receives the whole buffer from
 * {@code v - lowbit(v)} and then sends it to {@code v + m} for each power of two {@code m < lowbit(v)}
 * (largest first, so the biggest subtree starts earliest). Runs as the {@link io.mpirunj.collectives.multicast.BinomialMulticast}
 * schedule (without a model) over the communicator rotated to start at the root.
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
public final class BinomialBcast extends P2pTree implements CollectiveAlgorithm.Bcast {
    public BinomialBcast() {
        super(true);
    }

    @Override
    public String description() {
        return "binomial tree on point-to-point messages: ceil(log2 p) steps of the whole buffer";
    }

    @Override
    public int priority() {
        return 10;
    }
}
