package io.mpirunj.collectives.multicast;

import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;

/**
 * Binomial-tree multicast (recursive doubling), the classic baseline.
 *
 * <p><b>Contract.</b> Any ranks >= 1, any root; ignores the model. Virtual rank v (0 = root)
 * sends to v + 2^i for every 2^i below v's lowest set bit (all powers for the root) with
 * v + 2^i &lt; k, largest subtree first.
 *
 * <p><b>Cost.</b> ceil(log2 k) rounds, i.e. ceil(log2 k) * t_end in the round model; event-driven
 * the root's sends are t_hold apart. k - 1 messages of the whole buffer.
 *
 * <p><b>Example</b> (k = 7, t_hold = 10, t_end = 40; virtual ranks; round, event start / end):
 * <pre>
 *   round 1: 0 -> 4   0 / 40
 *   round 2: 0 -> 2  10 / 50     4 -> 6  40 / 80
 *   round 3: 0 -> 1  20 / 60     4 -> 5  50 / 90     2 -> 3  50 / 90
 *   rounds: 3 x 40 = 120 (the paper's figure); event-driven: 90
 * </pre>
 */
public final class BinomialMulticast {

    public static final String NAME = "binomial";

    private BinomialMulticast() {
    }

    public static Schedule build(int ranks, int root, long messageBytes, CostModel model) {
        Schedule.checkRooted(ranks, root, messageBytes);
        return tree(ranks, root).toSchedule(NAME, messageBytes);
    }

    static MulticastTree tree(int ranks, int root) {
        MulticastTree tree = new MulticastTree(ranks, root);
        int top = Integer.highestOneBit(Math.max(1, ranks - 1));
        for (int v = 0; v < ranks; v++) {
            int mask = v == 0 ? top : Integer.lowestOneBit(v) >>> 1;
            for (; mask > 0; mask >>>= 1) {
                if (v + mask < ranks) {
                    tree.addChild(Requests.rotate(v, root, ranks), Requests.rotate(v + mask, root, ranks));
                }
            }
        }
        return tree;
    }
}
