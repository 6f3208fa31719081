package io.mpirunj.fabric.topology;

import java.util.Objects;

/**
 * Every pair of nodes directly linked (per-link costs, e.g. paper 003's grid for TTCC/ECEF, are a
 * {@link io.mpirunj.fabric.model.PairCostModel}). Direction {@code d} of node {@code v} leads to
 * node {@code d} when {@code d < v}, else to {@code d + 1}; the route between two nodes is the
 * direct link. Labels are the node ids.
 */
public final class CompleteGraph implements Topology {

    private final int n;

    /** {@code n} nodes. */
    public CompleteGraph(int n) {
        if (n < 1 || n > 65536) {
            throw new IllegalArgumentException("complete graph size n=" + n + " (expected: 1..65536)");
        }
        this.n = n;
    }

    @Override
    public int nodes() {
        return n;
    }

    @Override
    public int degree() {
        return Math.max(1, n - 1);
    }

    @Override
    public int neighbor(int node, int direction) {
        if (direction < 0 || direction >= n - 1) {
            return -1;
        }
        return direction < node ? direction : direction + 1;
    }

    @Override
    public int direction(int from, int to) {
        if (from == to || to < 0 || to >= n) {
            return -1;
        }
        return to < from ? to : to - 1;
    }

    @Override
    public int[] route(int src, int dst) {
        return src == dst ? new int[] {src} : new int[] {src, dst};
    }

    @Override
    public String label(int node) {
        Objects.checkIndex(node, n);
        return Integer.toString(node);
    }

    @Override
    public int node(String label) {
        try {
            int v = Integer.parseInt(label == null ? "" : label.trim());
            if (v >= 0 && v < n) {
                return v;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new IllegalArgumentException("bad node '" + label + "' (expected: 0.." + (n - 1) + " on " + this + ")");
    }

    @Override
    public String toString() {
        return "complete:" + n;
    }
}
