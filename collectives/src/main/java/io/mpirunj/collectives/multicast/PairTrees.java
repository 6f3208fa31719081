package io.mpirunj.collectives.multicast;

import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.PairCostModel;
import java.util.Arrays;

/**
 * The greedy trees of heterogeneous broadcast (Bhat, Raghavendra, Prasanna 1999; paper 003): grown
 * from the root one edge at a time, each edge from an informed node y to an uninformed node z.
 *
 * <ul>
 *   <li>{@link Rule#FEF} (fastest edge first) takes the cheapest such edge.</li>
 *   <li>{@link Rule#ECEF} (earliest completing edge first) takes the edge minimising
 *       {@code ready(y) + cost(y, z)}; then y and z are both ready at that time (one send at a time
 *       per node, the sender busy for the whole transfer).</li>
 * </ul>
 * Ties go to the most recently informed sender, then to the lowest-numbered receiver. On a uniform
 * matrix this makes ECEF's tree binomial (every informed node sends once per round), never the flat
 * star a lowest-sender rule gives at three nodes, so TTCC's second tree exists from three nodes up.
 *
 * <p>Each informed node keeps its cheapest usable edge, so a tree costs O(n²) for n nodes in the
 * usual case rather than the O(n³) of rescanning every edge; the unit matrix is never stored.
 */
final class PairTrees {

    /** How the next edge is chosen. */
    enum Rule { FEF, ECEF }

    /** A tree grown from {@code root}: parents and each node's children in the order they were added. */
    static final class Tree {
        final int root;
        final int[] parent;
        final int[][] children;
        /** Nodes in the order they were reached (the root first); -1 parents for nodes not reached. */
        final int[] order;

        Tree(int root, int[] parent, int[][] children, int[] order) {
            this.root = root;
            this.parent = parent;
            this.children = children;
            this.order = order;
        }

        /** Whether the tree uses the edge a-b in either direction. */
        boolean hasLink(int a, int b) {
            return parent[a] == b || parent[b] == a;
        }

        /** Number of nodes reached, the root included. */
        int size() {
            return order.length;
        }
    }

    private PairTrees() {
    }

    /**
     * The cost matrix a heterogeneous builder plans with: {@code cost[a][b] = t_end(a, b, bytes)} of a
     * per-pair model over exactly {@code ranks} nodes, or null, meaning the unit matrix (every pair
     * costs 1), for a uniform model or none.
     */
    static double[][] plan(int ranks, long bytes, CostModel model, String algorithm) {
        if (model == null || model.uniform()) {
            return null;
        }
        if (model instanceof PairCostModel pairs && pairs.nodes() != ranks) {
            throw new IllegalArgumentException(algorithm + " on " + pairs + ": the matrix has " + pairs.nodes()
                    + " nodes (expected: " + ranks + ", one per rank)");
        }
        double[][] cost = new double[ranks][ranks];
        for (int a = 0; a < ranks; a++) {
            for (int b = 0; b < ranks; b++) {
                cost[a][b] = a == b ? 0 : model.tEnd(a, b, bytes);
            }
        }
        return cost;
    }

    /**
     * Grows a tree over {@code ranks} nodes from {@code root} by {@code rule} on {@code cost} (null:
     * the unit matrix), never using a link of {@code exclude} (null: none). Stops when every node is
     * reached or no usable edge leaves the reached set.
     */
    static Tree grow(int ranks, double[][] cost, int root, Tree exclude, Rule rule) {
        int n = ranks;
        int[] parent = new int[n];
        Arrays.fill(parent, -1);
        boolean[] informed = new boolean[n];
        double[] ready = new double[n];
        int[] best = new int[n];
        int[] order = new int[n];
        int[] childCount = new int[n];
        int[][] children = new int[n][];
        Candidates candidates = new Candidates(cost, exclude, informed);
        int reached = 0;
        order[reached++] = root;
        informed[root] = true;
        best[root] = candidates.cheapest(root);
        while (reached < n) {
            int y = -1;
            double key = Double.POSITIVE_INFINITY;
            for (int i = 0; i < reached; i++) {
                int w = order[i];
                if (best[w] < 0) {
                    continue;
                }
                double k = (rule == Rule.ECEF ? ready[w] : 0) + candidates.cost(w, best[w]);
                if (k <= key) { // later-informed senders win ties
                    key = k;
                    y = w;
                }
            }
            if (y < 0) {
                break; // the rest cannot be reached over usable edges
            }
            int z = best[y];
            parent[z] = y;
            childCount[y]++;
            double done = ready[y] + candidates.cost(y, z);
            ready[y] = done;
            ready[z] = done;
            informed[z] = true;
            order[reached++] = z;
            best[z] = candidates.cheapest(z);
            for (int i = 0; i < reached - 1; i++) {
                int w = order[i];
                if (best[w] == z) {
                    best[w] = candidates.cheapest(w);
                }
            }
        }
        for (int v = 0; v < n; v++) {
            children[v] = new int[childCount[v]];
            childCount[v] = 0;
        }
        for (int i = 1; i < reached; i++) {
            int z = order[i];
            children[parent[z]][childCount[parent[z]]++] = z;
        }
        return new Tree(root, parent, children, Arrays.copyOf(order, reached));
    }

    /** Each node's cheapest usable edge to an uninformed node. */
    private static final class Candidates {
        private final double[][] cost;
        private final Tree exclude;
        private final boolean[] informed;
        /** Unit matrix: the lowest node each sender may still reach (the informed set only grows). */
        private final int[] next;

        Candidates(double[][] cost, Tree exclude, boolean[] informed) {
            this.cost = cost;
            this.exclude = exclude;
            this.informed = informed;
            this.next = cost == null ? new int[informed.length] : null;
        }

        double cost(int a, int b) {
            return cost == null ? 1 : cost[a][b];
        }

        private boolean usable(int y, int z) {
            return z != y && !informed[z] && (exclude == null || !exclude.hasLink(y, z));
        }

        /** The uninformed node y reaches most cheaply over a usable edge (lowest number on ties), or -1. */
        int cheapest(int y) {
            int n = informed.length;
            if (cost == null) {
                int z = next[y];
                while (z < n && !usable(y, z)) {
                    z++;
                }
                next[y] = z;
                return z < n ? z : -1;
            }
            int best = -1;
            for (int z = 0; z < n; z++) {
                if (usable(y, z) && (best < 0 || cost[y][z] < cost[y][best])) {
                    best = z;
                }
            }
            return best;
        }
    }

    /** The one-tree multicast of {@code rule} (FEF or ECEF), planned on {@code model} for {@code messageBytes}. */
    static Schedule greedyMulticast(Rule rule, String name, int ranks, int root, long messageBytes, CostModel model) {
        Schedule.checkRooted(ranks, root, messageBytes);
        Tree tree = grow(ranks, plan(ranks, messageBytes, model, name), root, null, rule);
        return toMulticastTree(tree).toSchedule(name, messageBytes);
    }

    /** The tree as a one-tree multicast schedule: each node sends to its children in the order they were added. */
    static MulticastTree toMulticastTree(Tree tree) {
        int n = tree.parent.length;
        if (tree.size() != n) {
            throw new IllegalStateException("tree reaches " + tree.size() + " of " + n + " ranks (builder bug)");
        }
        MulticastTree out = new MulticastTree(n, tree.root);
        for (int i = 1; i < n; i++) {
            int z = tree.order[i];
            out.addChild(tree.parent[z], z);
        }
        return out;
    }
}
