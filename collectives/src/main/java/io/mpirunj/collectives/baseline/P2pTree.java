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

    /** Runs (blocking: returns null) or starts this rank's part of the tree over {@code ranks}. */
    private Request go(boolean blocking, CollChannel ch, Collective collective, Buffer buf, int[] ranks, int me,
            int tag) {
        if (blocking) {
            Scheduled.runRooted(ch, collective, name(), buf, ranks, me, tag,
                    () -> tree(ranks.length, buf.byteLength(), collective));
            return null;
        }
        return Scheduled.startRooted(ch, collective, name(), buf, ranks, me, tag,
                () -> tree(ranks.length, buf.byteLength(), collective));
    }

    /** The bcast from {@code root}: blocking (returns null) or started. */
    final Request bcast(CollChannel ch, Buffer buf, int root, boolean blocking) {
        int p = ch.size();
        return go(blocking, ch, Collective.BCAST, buf, Scheduled.rotated(p, root), (ch.rank() - root + p) % p,
                CollTags.BCAST);
    }

    /** The multicast to {@code group}: blocking (returns null) or started. */
    final Request multicast(CollChannel ch, Buffer buf, int root, int[] group, boolean blocking) {
        int[] ranks = Multicasts.participants(root, group, ch.size());
        int me = Multicasts.indexOf(ranks, ch.rank());
        if (me < 0 || ranks.length == 1) { // not a participant, or nobody to send to
            return blocking ? null : Scheduled.done(ch, buf, CollTags.MULTICAST);
        }
        return go(blocking, ch, Collective.MULTICAST, buf, ranks, me, CollTags.MULTICAST);
    }
}
