package io.mpirunj.collectives.multicast;

import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;

/**
 * Sequential tree (separate addressing): the root sends to every other rank itself.
 *
 * <p><b>Contract.</b> Any ranks >= 1, any root; ignores the model. The root sends to
 * root+1, root+2, ... (mod k).
 *
 * <p><b>Cost.</b> (k - 2) * t_hold + t_end event-driven; k - 1 rounds. Best when t_hold is tiny
 * against t_end (paper 000, figure 3).
 *
 * <p><b>Example</b> (k = 4, t_hold = 2, t_end = 5; start / end):
 * <pre>
 *   0 -> 1  0 / 5     0 -> 2  2 / 7     0 -> 3  4 / 9      completion 9
 * </pre>
 */
public final class SequentialMulticast {

    public static final String NAME = "sequential";

    private SequentialMulticast() {
    }

    public static Schedule build(int ranks, int root, long messageBytes, CostModel model) {
        Schedule.checkRooted(ranks, root, messageBytes);
        MulticastTree tree = new MulticastTree(ranks, root);
        for (int v = 1; v < ranks; v++) {
            tree.addChild(root, Requests.rotate(v, root, ranks));
        }
        return tree.toSchedule(NAME, messageBytes);
    }
}
