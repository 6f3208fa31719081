package io.mpirunj.collectives.mesh;

import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.topology.Mesh;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A multicast tree built by splitting a dimension-ordered chain, and its schedule. Every node
 * receives the whole buffer from its parent, then sends it to its children in order (the
 * address list a message carries is the child's interval of the chain; its bytes are not
 * counted). Steps are the earliest one-port rounds, as for the other multicast trees.
 */
final class ChainTree {

    /** Chooses how the holder of a chain interval splits it. */
    interface Splitter {
        /**
         * @param l      lowest index of the interval
         * @param r      highest index
         * @param holder the index of the node that holds the data, l &lt;= holder &lt;= r, l &lt; r
         * @return the index of the node to send to; it takes over the part of [l, r] on its side
         *         of the split, which must not contain {@code holder}: everything above the
         *         receiver when it is above the holder, everything below when below
         */
        int receiver(int l, int r, int holder);
    }

    private final int ranks;
    private final int root;
    private final List<List<Integer>> children;
    private final int[] parent;

    private ChainTree(int ranks, int root) {
        this.ranks = ranks;
        this.root = root;
        children = new ArrayList<>(ranks);
        for (int i = 0; i < ranks; i++) {
            children.add(new ArrayList<>(2));
        }
        parent = new int[ranks];
        Arrays.fill(parent, -1);
    }

    /**
     * The schedule ranks sorted into the dimension-ordered chain by their nodes ({@code <_d}).
     * Throws when two ranks share a node.
     */
    static int[] chain(Mesh mesh, int[] nodeOf) {
        Integer[] order = new Integer[nodeOf.length];
        for (int r = 0; r < nodeOf.length; r++) {
            if (nodeOf[r] < 0 || nodeOf[r] >= mesh.nodes()) {
                throw new IllegalArgumentException("nodeOf[" + r + "]=" + nodeOf[r] + " (expected: 0.."
                        + (mesh.nodes() - 1) + " on " + mesh + ")");
            }
            order[r] = r;
        }
        Arrays.sort(order, (a, b) -> mesh.compareDimensionOrder(nodeOf[a], nodeOf[b]));
        int[] chain = new int[order.length];
        for (int i = 0; i < order.length; i++) {
            chain[i] = order[i];
            if (i > 0 && nodeOf[chain[i]] == nodeOf[chain[i - 1]]) {
                throw new IllegalArgumentException("ranks " + chain[i - 1] + " and " + chain[i] + " share node "
                        + mesh.label(nodeOf[chain[i]]) + " (expected: one rank per node)");
            }
        }
        return chain;
    }

    /** Splits the chain recursively from the root's position. */
    static ChainTree split(int[] chain, int root, Splitter splitter) {
        int k = chain.length;
        ChainTree tree = new ChainTree(k, root);
        int rootIndex = -1;
        for (int i = 0; i < k; i++) {
            if (chain[i] == root) {
                rootIndex = i;
            }
        }
        // Pending intervals (l, r, holder), each node pushed once.
        int[] ls = new int[k];
        int[] rs = new int[k];
        int[] hs = new int[k];
        int top = 0;
        ls[top] = 0;
        rs[top] = k - 1;
        hs[top++] = rootIndex;
        while (top > 0) {
            top--;
            int l = ls[top];
            int r = rs[top];
            int h = hs[top];
            while (l < r) {
                int to = splitter.receiver(l, r, h);
                if (to < l || to > r || to == h) {
                    throw new IllegalStateException("splitter chose " + to + " in [" + l + ", " + r + "] holding "
                            + h + " (builder bug)");
                }
                tree.add(chain[h], chain[to]);
                if (to > h) {
                    ls[top] = to;
                    rs[top] = r;
                    r = to - 1;
                } else {
                    ls[top] = l;
                    rs[top] = to;
                    l = to + 1;
                }
                hs[top++] = to;
            }
        }
        return tree;
    }

    private void add(int from, int to) {
        if (parent[to] >= 0 || to == root) {
            throw new IllegalStateException("rank " + to + " placed twice (builder bug)");
        }
        parent[to] = from;
        children.get(from).add(to);
    }

    /** Whom {@code rank} sends to, in order. */
    List<Integer> children(int rank) {
        return children.get(rank);
    }

    Schedule toSchedule(String algorithm, long messageBytes, String note) {
        Schedule.Builder b = Schedule.builder(Collective.MULTICAST, algorithm, ranks, root, messageBytes).note(note);
        int[] received = new int[ranks];
        int[] queue = new int[ranks];
        int head = 0;
        int tail = 0;
        queue[tail++] = root;
        while (head < tail) {
            int v = queue[head++];
            if (v != root) {
                b.recv(v, parent[v], received[v], Block.WHOLE_ONLY);
            }
            int step = received[v];
            for (int c : children.get(v)) {
                step++;
                b.send(v, c, step, Block.WHOLE_ONLY);
                received[c] = step;
                queue[tail++] = c;
            }
        }
        if (tail != ranks) {
            throw new IllegalStateException("tree reaches " + tail + " of " + ranks + " ranks (builder bug)");
        }
        return b.build();
    }
}
