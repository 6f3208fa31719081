package io.mpirunj.collectives.star;

import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.topology.StarGraph;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * All-port broadcast on the wormhole star graph S_n in at most ceil(log_n n!) + 1 steps (paper 004,
 * Kim, Lee and Lee 2001), and a variant that matches the last step.
 *
 * <h2>Idea</h2>
 * The (n-1)! nodes with the source's first symbol a_1 in front form an independent set I_s; every
 * other node is the neighbour of exactly one I_s node over exactly one link l (a_1 at position l),
 * so once I_s is informed, one more step over every link of I_s informs everyone. The nodes with
 * a_1 at position l form the substar SS_l (an S_{n-1}); an I_s node r enters it at g_l(r).
 *
 * <h2>Informing I_s (the paper's algorithm 1)</h2>
 * Each SS_l carries a Hamiltonian path ({@link StarHamiltonianPath}) starting at the source's
 * neighbour. In step t the informed I_s nodes (senders, in the order they were informed) cut each
 * path into send intervals: sender r owns the positions from its own neighbour up to the next
 * sender's. For l = 2..n, for each sender r: inside r's interval, the neighbours of informed nodes
 * and of nodes already targeted in this step cut sub-intervals; r takes the longest (the first of
 * equal ones), and if it has two or more positions targets the I_s neighbour q of its midpoint
 * h = ceil((first + last) / 2), along r -> g_l(r) -> ... -> h -> q. Paths of one step stay in their
 * senders' own intervals, so they are link-disjoint; a sender uses each link at most once.
 *
 * <h2>The final step</h2>
 * Every I_s node sends over each of its n-1 links. It starts in the step after I_s is complete,
 * not at T_opt + 1 as algorithm 1 is printed: that is how S_4 finishes in 3 = T_opt steps
 * (figure 7).
 *
 * <h2>Variant {@value #MATCHED_NAME} (beyond the paper)</h2>
 * Before each greedy step, if the uninformed I_s nodes are no more than the (sender, substar)
 * slots, try to inform all of them at once: uninformed q can be reached by slot (r, l) when q's
 * neighbour in SS_l lies in r's send interval (the path runs from r's neighbour to it, inside the
 * interval, so paths stay link-disjoint). A maximum bipartite matching (Hopcroft-Karp) of slots to
 * nodes decides; if it covers every uninformed node, that step completes I_s, otherwise the step
 * is the paper's greedy one. This includes the "greedy, then match the free slots" rule as a
 * special case (a greedy step plus matched free slots is itself a matching).
 *
 * <h2>Cost</h2>
 * Steps: I_s steps + 1 (the builders report both). Path lengths grow with the intervals: up to
 * about (n-1)!/2 links in step 1, thousands of links at n = 8 and tens of thousands at n = 9; the
 * wormhole cost of a path is a header latency of cd per link, which is what the step count hides.
 */
public final class StarBcast {

    /** The paper's algorithm. */
    public static final String NAME = "star";
    /** The variant whose I_s steps end with a maximum matching. */
    public static final String MATCHED_NAME = "star-match";

    private static final byte UNINFORMED = 0;
    private static final byte TARGETED = 1;
    private static final byte INFORMED = 2;

    private StarBcast() {
    }

    /** The paper's broadcast from node {@code source} of S_n. */
    public static StarBroadcastPlan plan(int n, int source) {
        return new Builder(n, source, false).run();
    }

    /** The matched variant from node {@code source} of S_n. */
    public static StarBroadcastPlan planMatched(int n, int source) {
        return new Builder(n, source, true).run();
    }

    /** The schedule of {@link #plan} (or {@link #planMatched}) over ranks placed at {@code nodeOf}. */
    public static Schedule build(int n, int rootNode, long messageBytes, int[] nodeOf, boolean matched) {
        StarBroadcastPlan plan = matched ? planMatched(n, rootNode) : plan(n, rootNode);
        return plan.toSchedule(matched ? MATCHED_NAME : NAME, messageBytes, nodeOf);
    }

    /** One build's working state. I_s nodes are indexed 0..M-1 by their position in SS_2's path. */
    private static final class Builder {
        private final StarGraph graph;
        private final int n;
        private final int source;
        private final boolean matched;
        private final int m;
        private final int substars;
        /** path[l][x]: node at position x of SS_{l+2}'s Hamiltonian path. */
        private final int[][] path;
        /** neighbor[l][x]: the I_s index of the neighbour of path[l][x]. */
        private final int[][] neighbor;
        /** at[l][i]: the position of I_s index i's neighbour in SS_{l+2}. */
        private final int[][] at;
        private final int[] isNode;
        private final byte[] state;
        /** I_s indices in the order they were informed (the paper's sender order). */
        private final int[] order;
        private int informed;
        private final StarBroadcastPlan plan;

        Builder(int n, int source, boolean matched) {
            this.graph = new StarGraph(n);
            if (source < 0 || source >= graph.nodes()) {
                throw new IllegalArgumentException("source node " + source + " (expected: 0.." + (graph.nodes() - 1) + ")");
            }
            if (n < 3) {
                throw new IllegalArgumentException("star broadcast needs n >= 3 (got S_" + n + ")");
            }
            this.n = n;
            this.source = source;
            this.matched = matched;
            this.m = graph.factorial(n - 1);
            this.substars = n - 1;
            this.plan = new StarBroadcastPlan(n, source);
            int[] s = new int[n];
            graph.unrank(source, s);
            int[] swaps = StarHamiltonianPath.swapSequence(n - 1);
            path = new int[substars][];
            for (int l = 0; l < substars; l++) {
                path[l] = StarHamiltonianPath.substar(graph, s, l + 1, swaps);
                StarHamiltonianPath.check(n, path[l], l + 2, s[0]);
            }
            // I_s index i = position of the node's neighbour on SS_2's path.
            int[] scratch = new int[n];
            isNode = new int[m];
            int[] isIndex = new int[graph.nodes()];
            Arrays.fill(isIndex, -1);
            for (int x = 0; x < m; x++) {
                isNode[x] = graph.neighbor(path[0][x], 1, scratch);
                isIndex[isNode[x]] = x;
            }
            neighbor = new int[substars][m];
            at = new int[substars][m];
            for (int l = 0; l < substars; l++) {
                for (int x = 0; x < m; x++) {
                    int i = isIndex[graph.neighbor(path[l][x], l + 1, scratch)];
                    neighbor[l][x] = i;
                    at[l][i] = x;
                }
            }
            state = new byte[m];
            order = new int[m];
            int s0 = isIndex[source];
            state[s0] = INFORMED;
            order[informed++] = s0;
        }

        StarBroadcastPlan run() {
            int step = 0;
            while (informed < m) {
                step++;
                int senders = informed;
                int[][] start = new int[substars][];
                int[][] end = new int[substars][];
                int[][] ownerAt = new int[substars][];
                for (int l = 0; l < substars; l++) {
                    intervals(l, senders, start, end, ownerAt);
                }
                if (!(matched && matchAll(step, senders, start, ownerAt))) {
                    greedy(step, senders, start, end);
                }
                if (informed == senders) {
                    throw new IllegalStateException("star broadcast on S_" + n + " stalled in step " + step + " with "
                            + (m - informed) + " I_s nodes uninformed");
                }
            }
            plan.independentSetSteps(step);
            finalStep(step + 1);
            return plan;
        }

        /**
         * Send intervals of SS_l: sender k (index into order) owns [start[l][k], end[l][k]);
         * ownerAt[l][x] is the sender owning position x.
         */
        private void intervals(int l, int senders, int[][] start, int[][] end, int[][] ownerAt) {
            int[] senderOf = new int[m];
            Arrays.fill(senderOf, -1);
            for (int k = 0; k < senders; k++) {
                senderOf[order[k]] = k;
            }
            start[l] = new int[senders];
            end[l] = new int[senders];
            ownerAt[l] = new int[m];
            int current = -1;
            for (int x = 0; x < m; x++) {
                int k = senderOf[neighbor[l][x]];
                if (k >= 0) {
                    if (current >= 0) {
                        end[l][current] = x;
                    }
                    current = k;
                    start[l][k] = x;
                }
                if (current < 0) {
                    throw new IllegalStateException("SS_" + (l + 2) + "'s path does not start at the source's neighbour");
                }
                ownerAt[l][x] = current;
            }
            end[l][current] = m;
        }

        /** The paper's step: for each substar, for each sender, the midpoint of its longest sub-interval. */
        private void greedy(int step, int senders, int[][] start, int[][] end) {
            int[] targets = new int[senders * substars];
            int count = 0;
            for (int l = 0; l < substars; l++) {
                int[] nb = neighbor[l];
                for (int k = 0; k < senders; k++) {
                    int from = start[l][k];
                    int to = end[l][k];
                    int bestStart = from;
                    int bestLength = 0;
                    int runStart = from;
                    for (int x = from + 1; x <= to; x++) {
                        if (x == to || state[nb[x]] != UNINFORMED) {
                            if (x - runStart > bestLength) {
                                bestLength = x - runStart;
                                bestStart = runStart;
                            }
                            runStart = x;
                        }
                    }
                    if (bestLength >= 2) {
                        int h = bestStart + bestLength / 2;
                        int q = nb[h];
                        state[q] = TARGETED;
                        targets[count++] = q;
                        plan.add(step, walk(order[k], l, from, h, q));
                    }
                }
            }
            commit(targets, count);
        }

        /** The variant's step: informs every uninformed I_s node at once if a matching allows. */
        private boolean matchAll(int step, int senders, int[][] start, int[][] ownerAt) {
            int[] uninformed = new int[m - informed];
            int u = 0;
            for (int i = 0; i < m; i++) {
                if (state[i] == UNINFORMED) {
                    uninformed[u++] = i;
                }
            }
            if (u > senders * substars) {
                return false;
            }
            // Left: uninformed nodes; right: slots l * senders + k; each node has one slot per substar.
            int[][] adj = new int[u][substars];
            for (int j = 0; j < u; j++) {
                for (int l = 0; l < substars; l++) {
                    adj[j][l] = l * senders + ownerAt[l][at[l][uninformed[j]]];
                }
            }
            int[] slotOf = HopcroftKarp.match(adj, senders * substars);
            for (int j = 0; j < u; j++) {
                if (slotOf[j] < 0) {
                    return false;
                }
            }
            for (int j = 0; j < u; j++) {
                int l = slotOf[j] / senders;
                int k = slotOf[j] % senders;
                int q = uninformed[j];
                plan.add(step, walk(order[k], l, start[l][k], at[l][q], q));
            }
            commit(uninformed, u);
            return true;
        }

        private void commit(int[] targets, int count) {
            for (int j = 0; j < count; j++) {
                state[targets[j]] = INFORMED;
                order[informed++] = targets[j];
            }
        }

        /** The path r -> g_l(r) = path[l][from] -> ... -> path[l][h] -> q, as node ids. */
        private int[] walk(int r, int l, int from, int h, int q) {
            int[] p = new int[h - from + 3];
            p[0] = isNode[r];
            System.arraycopy(path[l], from, p, 1, h - from + 1);
            p[p.length - 1] = isNode[q];
            return p;
        }

        private void finalStep(int step) {
            for (int k = 0; k < m; k++) {
                int r = order[k];
                for (int l = 0; l < substars; l++) {
                    plan.add(step, new int[] {isNode[r], path[l][at[l][r]]});
                }
            }
        }
    }

    /** Maximum bipartite matching (Hopcroft-Karp), iterative so deep augmenting paths cannot overflow the stack. */
    static final class HopcroftKarp {
        private HopcroftKarp() {
        }

        /** @return for each left vertex its matched right vertex, or -1 */
        static int[] match(int[][] adj, int rightCount) {
            int left = adj.length;
            int[] matchL = new int[left];
            int[] matchR = new int[rightCount];
            Arrays.fill(matchL, -1);
            Arrays.fill(matchR, -1);
            int[] dist = new int[left];
            int[] edge = new int[left];
            int[] stack = new int[left];
            ArrayDeque<Integer> queue = new ArrayDeque<>();
            while (true) {
                // BFS from free left vertices, layering by alternating paths.
                boolean found = false;
                queue.clear();
                for (int v = 0; v < left; v++) {
                    if (matchL[v] < 0) {
                        dist[v] = 0;
                        queue.add(v);
                    } else {
                        dist[v] = -1;
                    }
                }
                while (!queue.isEmpty()) {
                    int v = queue.poll();
                    for (int r : adj[v]) {
                        int w = matchR[r];
                        if (w < 0) {
                            found = true;
                        } else if (dist[w] < 0) {
                            dist[w] = dist[v] + 1;
                            queue.add(w);
                        }
                    }
                }
                if (!found) {
                    return matchL;
                }
                // DFS along the layers from each free left vertex, with an explicit stack.
                Arrays.fill(edge, 0);
                for (int root = 0; root < left; root++) {
                    if (matchL[root] >= 0) {
                        continue;
                    }
                    int depth = 0;
                    stack[depth++] = root;
                    while (depth > 0) {
                        int v = stack[depth - 1];
                        if (edge[v] == adj[v].length) {
                            dist[v] = -1; // dead end for this phase
                            depth--;
                            continue;
                        }
                        int r = adj[v][edge[v]++];
                        int w = matchR[r];
                        if (w < 0) {
                            // Augment along the stack: each v on it takes the right vertex it just tried.
                            for (int d = depth - 1; d >= 0; d--) {
                                int x = stack[d];
                                int rx = adj[x][edge[x] - 1];
                                matchL[x] = rx;
                                matchR[rx] = x;
                            }
                            depth = 0;
                        } else if (dist[w] == dist[v] + 1) {
                            stack[depth++] = w;
                        }
                    }
                }
            }
        }
    }
}
