package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.runtime.spi.CollChannel;
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
public final class LinearP2pMulticast implements CollectiveAlgorithm.Multicast {
    @Override
    public String name() {
        return "linear-p2p";
    }

    @Override
    public String description() {
        return "flat tree: the root sends the whole buffer to each group rank";
    }

    @Override
    public void multicast(CollChannel ch, Buffer buf, int root, int[] group) {
        int[] ranks = Multicasts.participants(root, group, ch.size());
        int me = Multicasts.indexOf(ranks, ch.rank());
        if (me < 0 || ranks.length == 1) {
            return; // not a participant, or nobody to send to
        }
        Scheduled.runRooted(ch, Collective.MULTICAST, name(), buf, ranks, me, CollTags.MULTICAST,
                () -> LinearBcast.flat(ranks.length, buf.byteLength(), Collective.MULTICAST));
    }

    @Override
    public Request imulticast(CollChannel ch, Buffer buf, int root, int[] group) {
        int[] ranks = Multicasts.participants(root, group, ch.size());
        int me = Multicasts.indexOf(ranks, ch.rank());
        if (me < 0 || ranks.length == 1) {
            return Scheduled.done(ch, buf, CollTags.MULTICAST);
        }
        return Scheduled.startRooted(ch, Collective.MULTICAST, name(), buf, ranks, me, CollTags.MULTICAST,
                () -> LinearBcast.flat(ranks.length, buf.byteLength(), Collective.MULTICAST));
    }
}
