package io.mpirunj.collectives.baseline;

import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/**
 * Binomial-tree multicast on point-to-point messages: the participants are listed root first,
 * then the group in its given order (the root and repeats dropped), and the buffer goes down a
 * binomial tree over that list exactly as in {@link BinomialBcast} with list index as virtual rank.
 * Ranks outside the group never hear of it.
 *
 * <p>Contract: called by the root and every listed rank with the same root and group; the group
 * may include the root. Cost, with {@code m} participants: {@code ceil(log2 m)} steps;
 * {@code m - 1} messages of the whole buffer.
 *
 * <p>Reference: the binomial broadcast (MPICH {@code MPIR_Bcast_intra_binomial}) over a subgroup,
 * as in MPI-1 implementations of {@code MPI_Bcast} on a communicator created for the group.
 *
 * <pre>
 * root 5, group {2, 7, 1}: list [5, 2, 7, 1]
 *          rank 5      rank 2      rank 7      rank 1
 * step 1   send -> 7   .           recv &lt;- 5   .
 * step 2   send -> 2   recv &lt;- 5   send -> 1   recv &lt;- 7
 * </pre>
 */
public final class BinomialP2pMulticast extends P2pTree implements CollectiveAlgorithm.Multicast {
    public BinomialP2pMulticast() {
        super(true);
    }

    @Override
    public String description() {
        return "binomial tree over [root, group...] on point-to-point messages";
    }

    @Override
    public int priority() {
        return 10;
    }
}
