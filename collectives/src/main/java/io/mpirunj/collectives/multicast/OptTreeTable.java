package io.mpirunj.collectives.multicast;

/**
 * The OPT-tree tables of paper 000: {@code t[i]}, the optimal multicast time over i nodes, and
 * {@code j_i}, how many of them stay in the source's subtree at the first split (the other
 * {@code i - j_i} go to the first node the source sends to).
 *
 * <pre>
 *   t[1] = 0
 *   t[i] = min over 1 &lt;= j &lt;= i-1 of max( c(j), t[i-j] + t_end ),   c(j) = t[j] + t_hold
 * </pre>
 *
 * One correction to the paper's recurrence: a source that keeps only itself (j = 1) has nothing
 * left to send, so c(1) = 0, not t[1] + t_hold. The paper's form gives t[2] = max(t_hold, t_end),
 * which overstates the real t_end when t_hold &gt; t_end (its Algorithm 1 starts from t[2] = t_end
 * anyway). With this, t[k] is exactly the event-simulated completion of the tree for any
 * t_hold, t_end.
 *
 * <p>Multi-port (p sends in flight, an extension the paper attributes to its ref. [7]): at each
 * split the source sends to up to p subtree leaders at once, then continues t_hold later with its
 * own j nodes. Since t is non-decreasing, the i - j given-away nodes are best split as evenly as
 * possible, so
 * <pre>
 *   t[i] = min( t[ceil((i-1)/p)] + t_end ,                                   (j = 1: one last batch)
 *               min over 2 &lt;= j &lt;= i-p of max( t[j] + t_hold, t[ceil((i-j)/p)] + t_end ) )
 * </pre>
 * (j &gt;= 2 requires a full batch of p: otherwise an idle port could start the source's next send
 * at once). With p = 1 this is the one-port recurrence.
 *
 * <p>Indices are 1-based: {@code time(i)} and {@code split(i)} for 1 &lt;= i &lt;= size().
 */
public final class OptTreeTable {

    private final double[] t;
    private final int[] j;
    private final int ports;

    private OptTreeTable(double[] t, int[] j, int ports) {
        this.t = t;
        this.j = j;
        this.ports = ports;
    }

    /**
     * The table an OPT-tree build uses: the paper's O(k) Algorithm 1 when it is exact (one port,
     * t_hold &lt;= t_end), else the exact DP in O(k log k).
     */
    public static OptTreeTable of(int k, double tHold, double tEnd, int ports) {
        return ports == 1 && tHold <= tEnd ? algorithm1(k, tHold, tEnd) : dp(k, tHold, tEnd, ports);
    }

    /**
     * The paper's Algorithm 1, verbatim: O(k), using j_{i+1} in {j_i, j_i + 1}. Exact when
     * t_hold &lt;= t_end; may be wrong (too slow a tree) otherwise.
     */
    public static OptTreeTable algorithm1(int k, double tHold, double tEnd) {
        checkArguments(k, tHold, tEnd, 1);
        double[] t = new double[k + 1];
        int[] j = new int[k + 1];
        if (k >= 2) {
            t[2] = tEnd;
            j[2] = 1;
        }
        for (int i = 3; i <= k; i++) {
            int prev = j[i - 1];
            double keep = Math.max(t[prev] + tHold, t[i - prev] + tEnd);
            double grow = Math.max(t[prev + 1] + tHold, t[i - 1 - prev] + tEnd);
            if (keep < grow) {
                t[i] = keep;
                j[i] = prev;
            } else {
                t[i] = grow;
                j[i] = prev + 1;
            }
        }
        return new OptTreeTable(t, j, 1);
    }

    /**
     * The full DP evaluated literally, O(k^2): every j for every i. The reference the faster
     * tables are tested against. Ties go to the larger j, like Algorithm 1.
     */
    public static OptTreeTable fullDp(int k, double tHold, double tEnd, int ports) {
        checkArguments(k, tHold, tEnd, ports);
        double[] t = new double[k + 1];
        int[] j = new int[k + 1];
        for (int i = 2; i <= k; i++) {
            double best = Double.POSITIVE_INFINITY;
            for (int s = 1; s <= i - 1; s++) {
                if (s >= 2 && i - s < ports) {
                    break;
                }
                double value = cost(t, i, s, tHold, tEnd, ports);
                if (value <= best) {
                    best = value;
                    j[i] = s;
                }
            }
            t[i] = best;
        }
        return new OptTreeTable(t, j, ports);
    }

    /**
     * The exact DP in O(k log k): for a fixed i, c(j) = t[j] + t_hold never decreases in j and
     * t[ceil((i-j)/p)] + t_end never increases (t is non-decreasing), so the best j is where they
     * cross, found by bisection. Ties go to the larger j.
     */
    public static OptTreeTable dp(int k, double tHold, double tEnd, int ports) {
        checkArguments(k, tHold, tEnd, ports);
        double[] t = new double[k + 1];
        int[] j = new int[k + 1];
        for (int i = 2; i <= k; i++) {
            int bestJ = 1;
            double best = cost(t, i, 1, tHold, tEnd, ports);
            int lo = 2;
            int hi = i - ports;
            if (lo <= hi) {
                // Smallest s in [lo, hi] with c(s) >= g(s); hi + 1 when there is none.
                int a = lo;
                int b = hi + 1;
                while (a < b) {
                    int mid = (a + b) >>> 1;
                    if (t[mid] + tHold >= t[ceilDiv(i - mid, ports)] + tEnd) {
                        b = mid;
                    } else {
                        a = mid + 1;
                    }
                }
                for (int s = Math.max(lo, a - 1); s <= Math.min(hi, a); s++) {
                    double value = cost(t, i, s, tHold, tEnd, ports);
                    if (value <= best) {
                        best = value;
                        bestJ = s;
                    }
                }
            }
            t[i] = best;
            j[i] = bestJ;
        }
        return new OptTreeTable(t, j, ports);
    }

    private static double cost(double[] t, int i, int s, double tHold, double tEnd, int ports) {
        double given = t[ceilDiv(i - s, ports)] + tEnd;
        return s == 1 ? given : Math.max(t[s] + tHold, given);
    }

    static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }

    private static void checkArguments(int k, double tHold, double tEnd, int ports) {
        if (k < 1) {
            throw new IllegalArgumentException("k=" + k + " (expected: >= 1)");
        }
        if (!(tHold >= 0) || !(tEnd >= 0) || Double.isInfinite(tHold) || Double.isInfinite(tEnd)) {
            throw new IllegalArgumentException("t_hold=" + tHold + " t_end=" + tEnd + " (expected: finite, >= 0)");
        }
        if (ports < 1) {
            throw new IllegalArgumentException("ports=" + ports + " (expected: >= 1)");
        }
    }

    /** Largest i the table covers (the k it was built for). */
    public int size() {
        return t.length - 1;
    }

    public int ports() {
        return ports;
    }

    /** t[i]: optimal multicast time over i nodes, 1 &lt;= i &lt;= size(). */
    public double time(int i) {
        return t[i];
    }

    /** j_i: nodes kept in the source's subtree at the first split of i nodes; 0 for i = 1. */
    public int split(int i) {
        return j[i];
    }
}
