package io.mpirunj.collectives.multicast;

import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;

/**
 * Binary split (even halves), the baseline of paper 002 (its refs. [4, 5]).
 *
 * <p><b>Contract.</b> Any ranks >= 1, any root; ignores the model. Ranks form the sequence
 * 0..k-1 and the root stays at its own position. A source holding [lo, hi] (n nodes) cuts at
 * center = lo + floor(n/2): if it sits below center, it sends to center, which covers
 * [center, hi]; otherwise it sends to center - 1, which covers [lo, center - 1]. It keeps its own
 * half and repeats; receivers do the same. (The paper's case formula is garbled in the text;
 * its center = left + ceil((right-left)/2) and its "source - 1" case agree with this rule.)
 *
 * <p><b>Cost.</b> Paper 002: T(K) = T(ceil(K/2)) + L + 2o, i.e. ceil(log2 K) * t_end; that is
 * the event-simulated time when the root is at position 0 and t_hold &lt;= t_end (otherwise the
 * simulation can be a little faster: a source in the upper half keeps the larger half).
 *
 * <p><b>Example</b> (K = 8, LogP L = 6, o = 2, g = 4, so t_end = 10, t_hold = 4; root 0):
 * <pre>
 *   0 -> 4  0 / 10     0 -> 2  4 / 14     0 -> 1  8 / 18
 *   4 -> 6 10 / 20     4 -> 5 14 / 24     2 -> 3 14 / 24
 *   6 -> 7 20 / 30                                          completion 30 (paper 002, fig. 2a)
 * </pre>
 */
public final class BinarySplitMulticast {

    public static final String NAME = "binary-split";

    private BinarySplitMulticast() {
    }

    public static Schedule build(int ranks, int root, long messageBytes, CostModel model) {
        Schedule.checkRooted(ranks, root, messageBytes);
        // Even halves; the source sends to the nearest node of the other half.
        MulticastTree tree = IntervalSplitting.tree(ranks, root, (lo, hi, source) -> lo + (hi - lo + 1) / 2, true);
        return tree.toSchedule(NAME, messageBytes);
    }

    /** Paper 002, eq. (2): ceil(log2 K) * t_end. */
    public static double paperTime(int ranks, double tEnd) {
        int rounds = ranks <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(ranks - 1);
        return rounds * tEnd;
    }
}
