package io.mpirunj.collectives.multicast;

import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;

/**
 * Chain: the root sends to root+1, which forwards to root+2, and so on (mod k).
 *
 * <p><b>Contract.</b> Any ranks >= 1, any root; ignores the model.
 *
 * <p><b>Cost.</b> (k - 1) * t_end, k - 1 rounds. The unsegmented chain is a baseline; its
 * pipelined form ({@link ChainPipelinedMulticast}) is the one for large messages.
 *
 * <p><b>Example</b> (k = 4, t_end = 5; start / end):
 * <pre>
 *   0 -> 1  0 / 5     1 -> 2  5 / 10     2 -> 3  10 / 15     completion 15
 * </pre>
 */
public final class ChainMulticast {

    public static final String NAME = "chain";

    private ChainMulticast() {
    }

    public static Schedule build(int ranks, int root, long messageBytes, CostModel model) {
        Schedule.checkRooted(ranks, root, messageBytes);
        return tree(ranks, root).toSchedule(NAME, messageBytes);
    }

    static MulticastTree tree(int ranks, int root) {
        MulticastTree tree = new MulticastTree(ranks, root);
        for (int v = 1; v < ranks; v++) {
            tree.addChild(Requests.rotate(v - 1, root, ranks), Requests.rotate(v, root, ranks));
        }
        return tree;
    }
}
