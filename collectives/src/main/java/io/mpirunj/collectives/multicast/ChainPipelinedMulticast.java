package io.mpirunj.collectives.multicast;

import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;

/**
 * Pipelined chain for large messages: the buffer is cut into s segments that stream down the
 * chain root, root+1, ... (mod k); each rank forwards segment j as soon as it has it.
 *
 * <p><b>Contract.</b> Any ranks >= 1, any root, any size. s is chosen from the model
 * ({@link Segmentation}); an explicit count can be forced with {@link #build(int, int, long, int)}.
 * Falls back to one whole-buffer message when the buffer has fewer than 2 bytes.
 *
 * <p><b>Cost.</b> Event-driven, segments of equal size: (s - 1) * t_hold(m/s) + (k - 1) * t_end(m/s),
 * the estimate used to pick s. (k - 1) * s messages.
 *
 * <p><b>Example</b> (k = 3, s = 3, t_hold = 2, t_end = 5 per segment; start / end):
 * <pre>
 *   0 -> 1 seg0  0 / 5     seg1  2 / 7     seg2  4 / 9
 *   1 -> 2 seg0  5 / 10    seg1  7 / 12    seg2  9 / 14     completion 14 = 2*2 + 2*5
 * </pre>
 */
public final class ChainPipelinedMulticast {

    public static final String NAME = "chain-pipelined";

    private ChainPipelinedMulticast() {
    }

    public static Schedule build(int ranks, int root, long messageBytes, CostModel model) {
        Schedule.checkRooted(ranks, root, messageBytes);
        int segments = ranks == 1 ? 1 : Segmentation.choose(messageBytes, ranks, model,
                (s, hold, end) -> (s - 1) * hold + (ranks - 1) * end);
        return build(ranks, root, messageBytes, segments);
    }

    /** With an explicit segment count, 1 &lt;= segments &lt;= max(1, messageBytes). */
    public static Schedule build(int ranks, int root, long messageBytes, int segments) {
        Schedule.checkRooted(ranks, root, messageBytes);
        return segmented(ChainMulticast.tree(ranks, root), NAME, messageBytes, segments);
    }

    static Schedule segmented(MulticastTree tree, String name, long messageBytes, int segments) {
        if (segments < 1 || segments > Math.max(1, messageBytes)) {
            throw new IllegalArgumentException("segments=" + segments + " (expected: 1.." + Math.max(1, messageBytes) + ")");
        }
        if (segments == 1) {
            return tree.toSchedule(name, messageBytes, Block.WHOLE_ONLY, 1, Segmentation.describe(1, messageBytes));
        }
        return tree.toSchedule(name, messageBytes, Block.segments(messageBytes, segments), 1,
                Segmentation.describe(segments, messageBytes));
    }
}
