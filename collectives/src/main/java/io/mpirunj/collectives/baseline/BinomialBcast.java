package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.collectives.multicast.BinomialMulticast;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/**
 * Binomial-tree broadcast on point-to-point messages. With ranks renumbered relative to the root
 * ({@code v = (rank - root) mod p}), rank {@code v} receives the whole buffer from
 * {@code v - lowbit(v)} and then sends it to {@code v + m} for each power of two {@code m < lowbit(v)}
 * (largest first, so the biggest subtree starts earliest). Runs as the {@link BinomialMulticast}
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
        Scheduled.runRooted(ch, Collective.BCAST, name(), buf, Scheduled.rotated(p, root), (ch.rank() - root + p) % p,
                CollTags.BCAST, () -> tree(p, buf.byteLength(), Collective.BCAST));
    }

    @Override
    public Request ibcast(CollChannel ch, Buffer buf, int root) {
        int p = ch.size();
        return Scheduled.startRooted(ch, Collective.BCAST, name(), buf, Scheduled.rotated(p, root),
                (ch.rank() - root + p) % p, CollTags.BCAST, () -> tree(p, buf.byteLength(), Collective.BCAST));
    }

    /** The binomial tree over {@code ranks} participants rooted at index 0, shared with {@link BinomialP2pMulticast}. */
    static Schedule tree(int ranks, long bytes, Collective collective) {
        return BinomialMulticast.build(ranks, 0, bytes, null).withCollective(collective);
    }
}
