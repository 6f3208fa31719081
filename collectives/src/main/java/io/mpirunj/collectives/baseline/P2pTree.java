package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.collectives.multicast.BinomialMulticast;
import io.mpirunj.collectives.multicast.SequentialMulticast;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/**
 * What the point-to-point bcasts and multicasts share: a model-free tree schedule (binomial, or the
 * flat tree) over the participants rooted at index 0, run by the generic runner. A bcast's
 * participants are the communicator rotated to start at the root; a multicast's are
 * {@code [root, group...]}.
 */
abstract class P2pTree implements CollectiveAlgorithm {
    private final boolean binomial;

    P2pTree(boolean binomial) {
        this.binomial = binomial;
    }

    @Override
    public String name() {
        return binomial ? "binomial-p2p" : "linear-p2p";
    }

    private Schedule tree(int ranks, long bytes, Collective collective) {
        Schedule s = binomial ? BinomialMulticast.build(ranks, 0, bytes, null)
                : SequentialMulticast.build(ranks, 0, bytes, null);
        return s.withCollective(collective);
    }

    /** The bcast from {@code root}: blocking (returns null) or started (for the subclasses that are bcasts). */
    public final Request bcast(CollChannel ch, Buffer buf, int root, boolean blocking) {
        return Multicasts.bcast(blocking, ch, buf, root, CollTags.BCAST, (c, ranks) -> Scheduled.rooted(c, name(),
                ranks, buf.byteLength(), () -> tree(ranks.length, buf.byteLength(), c)));
    }

    /** The multicast to {@code group}: blocking (returns null) or started (for the subclasses that are multicasts). */
    public final Request multicast(CollChannel ch, Buffer buf, int root, int[] group, boolean blocking) {
        return Multicasts.multicast(blocking, ch, buf, root, group, CollTags.MULTICAST, (c, ranks) -> Scheduled.rooted(
                c, name(), ranks, buf.byteLength(), () -> tree(ranks.length, buf.byteLength(), c)));
    }
}
