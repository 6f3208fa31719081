package io.mpirunj.collectives.multicast;

import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;

/**
 * OPT-tree multicast (J.-Y. Lee, paper 000): the optimal one-port tree for the model's t_hold
 * and t_end at this message size.
 *
 * <p><b>Contract.</b> Any ranks >= 1, any root; needs a uniform cost model. The tree over
 * virtual ranks 0..k-1 (0 = root, rotated onto schedule ranks) is built from {@link OptTreeTable}:
 * a source holding the interval [a, a+i) sends first to a + j_i, which leads [a + j_i, a + i),
 * then continues t_hold later with its own [a, a + j_i); recursively.
 *
 * <p><b>Cost.</b> {@code t[k]} of the table, which is exactly the event-simulated completion.
 * k - 1 messages of the whole buffer. Building: the table in O(k) (t_hold &lt;= t_end, the
 * paper's Algorithm 1) or O(k log k) (exact DP otherwise), the tree in O(k).
 *
 * <p><b>Example</b> (k = 7, t_hold = 10, t_end = 40; virtual ranks; start / end). The table gives
 * j_7 = 5: the root first hands {5, 6} to rank 5, then serves 4, 3, 2, 1 itself:
 * <pre>
 *   0 -> 5   0 / 40     0 -> 4  10 / 50     0 -> 3  20 / 60     0 -> 2  30 / 70     0 -> 1  40 / 80
 *   5 -> 6  40 / 80                                             completion 80 = t[7]
 * </pre>
 * The binomial tree takes 90 on the same model (120 in the round evaluation).
 *
 * <p>Reference: J.-Y. Lee, "Optimal multicast algorithm and architecture-dependent tuning on the
 * parameterized communication model", 1999, Algorithm 1 and Table 1.
 */
public final class OptTreeMulticast {

    public static final String NAME = "opt-tree";

    private OptTreeMulticast() {
    }

    public static Schedule build(int ranks, int root, long messageBytes, CostModel model) {
        Schedule.checkRooted(ranks, root, messageBytes);
        return build(ranks, root, messageBytes, table(ranks, messageBytes, model));
    }

    /** The table a build with this model uses (one-port). */
    public static OptTreeTable table(int ranks, long messageBytes, CostModel model) {
        Requests.uniform(model, NAME);
        return OptTreeTable.of(ranks, model.tHold(messageBytes), model.tEnd(messageBytes), 1);
    }

    /** Builds the tree a given one-port table describes. */
    static Schedule build(int ranks, int root, long messageBytes, OptTreeTable table) {
        return MultiPortOptTreeMulticast.tree(ranks, root, table, 1).toSchedule(NAME, messageBytes);
    }
}
