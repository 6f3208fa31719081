package io.mpirunj.collectives.multicast;

/**
 * The tree of a split-the-interval multicast (paper 002's scheme, shared by the binary and
 * Fibonacci splits): a source holding the interval {@code [lo, hi]} of the participant sequence cuts
 * it in two contiguous parts, keeps the part that contains it, and hands the other part to one of
 * that part's nodes, which becomes its source; both repeat until every interval is one node. The
 * algorithms differ only in where they cut and which node of the other part receives.
 */
final class IntervalSplitting {
    /** Where a source cuts its interval. */
    @FunctionalInterface
    interface Cut {
        /** The first index of the upper part: {@code lo < cut <= hi}. */
        int at(int lo, int hi, int source);
    }

    private IntervalSplitting() {
    }

    /**
     * @param toNearest when the source is in the upper part, send to the lower part's last node (the
     *     one nearest the source) rather than its first; a source in the lower part always sends to
     *     the upper part's first node
     */
    static MulticastTree tree(int ranks, int root, Cut cut, boolean toNearest) {
        MulticastTree tree = new MulticastTree(ranks, root);
        // Pending intervals (lo, hi, source), each source covering [lo, hi]; every node is pushed once.
        int[] lows = new int[ranks];
        int[] highs = new int[ranks];
        int[] sources = new int[ranks];
        int top = 0;
        lows[top] = 0;
        highs[top] = ranks - 1;
        sources[top++] = root;
        while (top > 0) {
            top--;
            int lo = lows[top];
            int hi = highs[top];
            int source = sources[top];
            while (lo < hi) {
                int c = cut.at(lo, hi, source);
                if (source < c) {
                    tree.addChild(source, c);
                    lows[top] = c;
                    highs[top] = hi;
                    sources[top++] = c;
                    hi = c - 1;
                } else {
                    int receiver = toNearest ? c - 1 : lo;
                    tree.addChild(source, receiver);
                    lows[top] = lo;
                    highs[top] = c - 1;
                    sources[top++] = receiver;
                    lo = c;
                }
            }
        }
        return tree;
    }
}
