package io.mpirunj.collectives.star;

import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.topology.StarGraph;

/**
 * The Akers-Harel-Krishnamurthy broadcast on S_n (1987), the baseline of paper 004: n - 1 steps.
 *
 * <p>S_n splits into n substars S_{n-1} by the symbol in the last position. In step k (k = 1..n-1)
 * let m = n - k + 1: every informed node v = a_1...a_n is the only informed node of its S_m (the
 * nodes agreeing with it on positions m+1..n), and sends to one node in each of the other m - 1
 * S_{m-1} inside it (position m holding a_1, a_2, ..., a_{m-1}): to a_1 over g_m (one link), to
 * a_i over g_i then g_m (two links, 2 <= i <= m-1). All of v's paths stay inside its S_m and start
 * on different links of v; their second links leave different nodes, so the paths of a step are
 * link-disjoint, and v sends m - 1 messages at once. After step n - 1 every node is informed.
 *
 * <pre>
 *   S_4, source 1234:  step 1  1234 -> 4231 (g4), 2134 -> 4132 (g2 g4), 3214 -> 4213 (g3 g4)
 *                      step 2  each of the 4 informed nodes, inside its S_3: 2 sends
 *                      step 3  each of the 12 informed nodes: 1 send over g2
 * </pre>
 */
public final class AkersStarBcast {

    public static final String NAME = "akers-star";

    private AkersStarBcast() {
    }

    /** The broadcast from node {@code source} of S_n. */
    public static StarBroadcastPlan plan(int n, int source) {
        StarGraph graph = new StarGraph(n);
        if (source < 0 || source >= graph.nodes()) {
            throw new IllegalArgumentException("source node " + source + " (expected: 0.." + (graph.nodes() - 1) + ")");
        }
        StarBroadcastPlan plan = new StarBroadcastPlan(n, source);
        int[] informed = {source};
        int count = 1;
        int[] p = new int[n];
        for (int step = 1; step < n; step++) {
            int mpos = n - step; // 0-based position m - 1 of the S_m's last free position
            int[] next = new int[count * (mpos + 1)];
            int added = 0;
            for (int j = 0; j < count; j++) {
                int v = informed[j];
                next[added++] = v;
                // a_1 to position m directly.
                int w = graph.neighbor(v, mpos, p);
                plan.add(step, new int[] {v, w});
                next[added++] = w;
                for (int i = 1; i < mpos; i++) {
                    int mid = graph.neighbor(v, i, p);
                    int dst = graph.neighbor(mid, mpos, p);
                    plan.add(step, new int[] {v, mid, dst});
                    next[added++] = dst;
                }
            }
            informed = next;
            count = added;
        }
        return plan;
    }

    /** The schedule of {@link #plan} over ranks placed at {@code nodeOf}. */
    public static Schedule build(int n, int rootNode, long messageBytes, int[] nodeOf) {
        return plan(n, rootNode).toSchedule(NAME, messageBytes, nodeOf);
    }
}
