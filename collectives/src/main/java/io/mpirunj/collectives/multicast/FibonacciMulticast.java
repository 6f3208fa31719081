package io.mpirunj.collectives.multicast;

import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;

/**
 * Fibonacci-split multicast (Gu, Li, Liu, paper 002), designed for LogP.
 *
 * <p><b>Contract.</b> Any ranks >= 1, any root; ignores the model (the split depends on K only).
 * Ranks form the sequence d_1..d_K (schedule ranks 0..K-1) with the source at its own position s.
 * With f_0 = 0, f_1 = 1 and f_n &lt;= K &lt; f_{n+1}, the source splits off a part of f_{n-2} nodes
 * and keeps the larger part:
 * <ul>
 *   <li>s &gt; f_{n-2}: the small part is d_1..d_{f_{n-2}}; the source sends to d_1, which covers it;</li>
 *   <li>otherwise: the small part is d_{K-f_{n-2}+1}..d_K; the source sends to its first node.</li>
 * </ul>
 * Both parts recurse (a receiver is the source of its part). K = 2 falls out of the same rule.
 *
 * <p><b>Cost.</b> With t_hold = g and t_end = L + 2o, the paper's recurrence
 * T(K) = max{T(f_{n-2}) + t_end, T(K - f_{n-2}) + t_hold}, T(1) = 0, T(2) = t_end
 * ({@link #paperTime}) is exactly the event-simulated completion. Bound:
 * T(K) &lt;= floor(0.72022 log2 K) (g + max{2g, L + 2o}). K - 1 messages.
 *
 * <p><b>Example</b> (K = 8, L = 6, o = 2, g = 4; source d_1 = rank 0; start / end):
 * <pre>
 *   0 -> 5  0 / 10     0 -> 3  4 / 14     0 -> 2  8 / 18     0 -> 1 12 / 22
 *   5 -> 7 10 / 20     5 -> 6 14 / 24     3 -> 4 14 / 24                  completion 24
 * </pre>
 * (fig. 2b of paper 002: 24 against the binary split's 30).
 */
public final class FibonacciMulticast {

    public static final String NAME = "fibonacci";

    private FibonacciMulticast() {
    }

    public static Schedule build(int ranks, int root, long messageBytes, CostModel model) {
        Schedule.checkRooted(ranks, root, messageBytes);
        int[] fib = fibonacciUpTo(ranks);
        // The smaller part has f_{n-2} nodes and never holds the source; the source sends to its first node.
        MulticastTree tree = IntervalSplitting.tree(ranks, root, (lo, hi, source) -> {
            int small = smallPart(fib, hi - lo + 1);
            return source - lo + 1 > small ? lo + small : hi - small + 1;
        }, false);
        return tree.toSchedule(NAME, messageBytes);
    }

    /**
     * Paper 002, eq. (3)-(4): T(K) = max{T(f_{n-2}) + t_end, T(K - f_{n-2}) + t_hold}, T(1) = 0,
     * T(2) = t_end, where f_n &lt;= K &lt; f_{n+1}.
     */
    public static double paperTime(int ranks, double tHold, double tEnd) {
        if (ranks < 1) {
            throw new IllegalArgumentException("ranks=" + ranks + " (expected: >= 1)");
        }
        int[] fib = fibonacciUpTo(ranks);
        double[] t = new double[ranks + 1];
        for (int k = 2; k <= ranks; k++) {
            int small = smallPart(fib, k);
            t[k] = k == 2 ? tEnd : Math.max(t[small] + tEnd, t[k - small] + tHold);
        }
        return t[ranks];
    }

    /** f_{n-2} for f_n &lt;= size &lt; f_{n+1}; size >= 2. */
    static int smallPart(int[] fib, int size) {
        int n = 2;
        while (fib[n + 1] <= size) {
            n++;
        }
        return fib[n - 2];
    }

    /** f_0.. up to the first term above {@code limit}. */
    static int[] fibonacciUpTo(int limit) {
        int[] fib = new int[64];
        fib[1] = 1;
        int n = 1;
        while (fib[n] <= limit) {
            n++;
            fib[n] = fib[n - 1] + fib[n - 2];
        }
        return java.util.Arrays.copyOf(fib, n + 1);
    }
}
