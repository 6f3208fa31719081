package io.mpirunj.collectives.multicast;

import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;

/**
 * Segmented binomial tree for large messages: the binomial tree of {@link BinomialMulticast},
 * with the buffer cut into s segments; each rank forwards segment j to all its children
 * (largest subtree first) as soon as it has it, then handles segment j + 1.
 *
 * <p><b>Contract.</b> Any ranks >= 1, any root, any size. s is chosen from the model
 * ({@link Segmentation}) using the estimate below; force it with {@link #build(int, int, long, int)}.
 *
 * <p><b>Cost.</b> With d = ceil(log2 k), h = t_hold(m/s), e = t_end(m/s), the root is the
 * bottleneck: estimate max((s*d - 1) h + e, (s - 1) d h + d e). The simulator gives the exact
 * value. (k - 1) * s messages.
 *
 * <p><b>Example</b> (k = 4, s = 2; rounds): round 1: 0->2 seg0; round 2: 0->1 seg0, 2->3 seg0;
 * round 3: 0->2 seg1; round 4: 0->1 seg1, 2->3 seg1.
 */
public final class BinomialSegmentedMulticast {

    public static final String NAME = "binomial-segmented";

    private BinomialSegmentedMulticast() {
    }

    public static Schedule build(int ranks, int root, long messageBytes, CostModel model) {
        Schedule.checkRooted(ranks, root, messageBytes);
        int depth = ranks <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(ranks - 1);
        int segments = ranks == 1 ? 1 : Segmentation.choose(messageBytes, ranks, model,
                (s, hold, end) -> Math.max(((double) s * depth - 1) * hold + end, (s - 1.0) * depth * hold + depth * end));
        return build(ranks, root, messageBytes, segments);
    }

    /** With an explicit segment count, 1 &lt;= segments &lt;= max(1, messageBytes). */
    public static Schedule build(int ranks, int root, long messageBytes, int segments) {
        Schedule.checkRooted(ranks, root, messageBytes);
        return ChainPipelinedMulticast.segmented(BinomialMulticast.tree(ranks, root), NAME, messageBytes, segments);
    }
}
