package io.mpirunj.collectives.star;

import io.mpirunj.fabric.topology.StarGraph;

/**
 * Hamiltonian paths of the star graph along generator edges, for the (n-1)-substars the paper's
 * broadcast walks through.
 *
 * <h2>Construction</h2>
 * Paper 004 uses the Nigam-Sahni-Krishnamurthy construction; any correct one will do, and we use
 * Ehrlich's star-transposition Gray code (Knuth, TAOCP 7.2.1.2, Algorithm E): it lists all m!
 * permutations so that consecutive ones differ by swapping the first symbol with another, which is
 * exactly a Hamiltonian path of S_m. It is loopless, so S_8's 40,320-node path costs one ranking
 * per node.
 *
 * <h2>Substars</h2>
 * The substar SS_l of a source s = a_1...a_n holds the nodes with a_1 at (1-based) position l; with
 * a_1 removed it is an S_{n-1} on the other positions, and its generators are the g_i, i != l.
 * Relabelling symbols is an automorphism of the star graph, so the Gray code of S_{n-1}, started
 * from the identity and relabelled, becomes a Hamiltonian path of SS_l that starts at any chosen
 * node; we start it at g_l(s), the source's own neighbour, so that the source's send interval
 * starts at position 0 (the paper cuts a Hamiltonian cycle at the source's neighbour).
 *
 * <p>{@link #check} verifies a path independently of how it was made; the builders run it on
 * every path they use.
 */
public final class StarHamiltonianPath {

    private StarHamiltonianPath() {
    }

    /**
     * Ehrlich's swap sequence for S_m: entry x is the position (1..m-1, 0-based) swapped with
     * position 0 to go from the x-th permutation to the next; m! - 1 entries.
     */
    static int[] swapSequence(int m) {
        int total = 1;
        for (int i = 2; i <= m; i++) {
            total *= i;
        }
        int[] swaps = new int[total - 1];
        if (m < 2) {
            return swaps;
        }
        int[] b = new int[m];
        int[] c = new int[m + 1];
        for (int j = 0; j < m; j++) {
            b[j] = j;
        }
        int count = 0;
        while (true) {
            int k = 1;
            while (c[k] == k) {
                c[k] = 0;
                k++;
            }
            if (k == m) {
                break;
            }
            c[k]++;
            swaps[count++] = b[k];
            for (int j = 1, h = k - 1; j < h; j++, h--) {
                int t = b[j];
                b[j] = b[h];
                b[h] = t;
            }
        }
        if (count != swaps.length) {
            throw new IllegalStateException("Ehrlich sequence of S_" + m + " has " + count + " swaps (expected "
                    + swaps.length + ")");
        }
        return swaps;
    }

    /** A Hamiltonian path of the whole S_n starting at node {@code start} (node ids of {@link io.mpirunj.fabric.topology.StarGraph}). */
    public static int[] of(int n, int start) {
        StarGraph graph = new StarGraph(n);
        int[] p = new int[n];
        graph.unrank(start, p);
        int[] swaps = swapSequence(n);
        int[] path = new int[graph.nodes()];
        path[0] = start;
        for (int x = 0; x < swaps.length; x++) {
            StarGraph.swap(p, 0, swaps[x]);
            path[x + 1] = graph.rank(p);
        }
        return path;
    }

    /**
     * The Hamiltonian path of substar SS_l of {@code source} (1-based {@code l}, 2..n): every node
     * with the source's first symbol at position l, starting at g_l(source).
     */
    public static int[] substar(int n, int source, int l) {
        StarGraph graph = new StarGraph(n);
        int[] s = new int[n];
        graph.unrank(source, s);
        return substar(graph, s, l - 1, swapSequence(n - 1));
    }

    /** As {@link #substar(int, int, int)} with a 0-based position and a precomputed S_{n-1} swap sequence. */
    static int[] substar(StarGraph graph, int[] source, int position, int[] swaps) {
        int n = graph.symbols();
        // Sub-position j of the S_{n-1} (0..n-2) is star position j, skipping the fixed one.
        int[] star = new int[n - 1];
        for (int j = 0; j < n - 1; j++) {
            star[j] = j < position ? j : j + 1;
        }
        int[] p = source.clone();
        StarGraph.swap(p, 0, position); // g_l(source)
        int[] path = new int[graph.factorial(n - 1)];
        path[0] = graph.rank(p);
        for (int x = 0; x < swaps.length; x++) {
            StarGraph.swap(p, 0, star[swaps[x]]);
            path[x + 1] = graph.rank(p);
        }
        return path;
    }

    /**
     * Checks that {@code path} is a Hamiltonian path of the substar of S_n whose nodes carry
     * {@code symbol} at 1-based position {@code l} (or of the whole S_n when {@code l} is 0): it
     * has (n-1)! (or n!) nodes, all in that substar, none twice, each linked to the next by a
     * generator that keeps {@code symbol} in place.
     *
     * @throws IllegalStateException naming the first node that breaks it
     */
    public static void check(int n, int[] path, int l, int symbol) {
        StarGraph graph = new StarGraph(n);
        int expected = l == 0 ? graph.nodes() : graph.factorial(n - 1);
        String what = l == 0 ? "S_" + n : "substar with symbol " + symbol + " at position " + l + " of S_" + n;
        if (path.length != expected) {
            throw new IllegalStateException("Hamiltonian path of the " + what + " has " + path.length
                    + " nodes (expected " + expected + ")");
        }
        boolean[] seen = new boolean[graph.nodes()];
        int[] prev = new int[n];
        int[] cur = new int[n];
        for (int x = 0; x < path.length; x++) {
            int node = path[x];
            if (node < 0 || node >= graph.nodes()) {
                throw new IllegalStateException("Hamiltonian path of the " + what + ": entry " + x + " is node " + node
                        + " (expected 0.." + (graph.nodes() - 1) + ")");
            }
            graph.unrank(node, cur);
            if (l != 0 && cur[l - 1] != symbol) {
                throw new IllegalStateException("Hamiltonian path of the " + what + ": entry " + x + " ("
                        + label(cur) + ") is outside the substar");
            }
            if (seen[node]) {
                throw new IllegalStateException("Hamiltonian path of the " + what + ": entry " + x + " ("
                        + label(cur) + ") visits a node twice");
            }
            seen[node] = true;
            if (x > 0 && graph.linkPosition(prev, cur) < 0) {
                throw new IllegalStateException("Hamiltonian path of the " + what + ": entries " + (x - 1) + " and " + x
                        + " (" + label(prev) + ", " + label(cur) + ") are not linked by a generator");
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
    }

    static String label(int[] p) {
        StringBuilder sb = new StringBuilder(p.length);
        for (int s : p) {
            sb.append(s);
        }
        return sb.toString();
    }
}
