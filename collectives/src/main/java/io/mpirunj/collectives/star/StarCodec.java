package io.mpirunj.collectives.star;

import io.mpirunj.fabric.topology.StarGraph;

/**
 * Allocation-free permutation ranking for the star-graph builders: the same node ids as
 * {@link StarGraph} (the lexicographic rank of the permutation of symbols 1..n, {@code 12...n} is
 * 0), but without {@link StarGraph}'s per-call checks and arrays, because the builders rank
 * millions of permutations at n = 9. Positions are 0-based here: generator g_i of the paper swaps
 * positions 0 and i - 1, which is {@link StarGraph} direction i - 2.
 */
final class StarCodec {

    final int n;
    final int nodes;
    private final int[] factorial;

    StarCodec(int n) {
        if (n < 2 || n > StarGraph.MAX_SYMBOLS) {
            throw new IllegalArgumentException("star graph size n=" + n + " (expected: 2.." + StarGraph.MAX_SYMBOLS + ")");
        }
        this.n = n;
        factorial = new int[n + 1];
        factorial[0] = 1;
        for (int i = 1; i <= n; i++) {
            factorial[i] = factorial[i - 1] * i;
        }
        nodes = factorial[n];
    }

    int factorial(int k) {
        return factorial[k];
    }

    /** The lexicographic rank of {@code p}, a permutation of 1..n (not checked). */
    int rank(int[] p) {
        int used = 0;
        int id = 0;
        for (int i = 0; i < n; i++) {
            int s = p[i];
            int smallerUsed = Integer.bitCount(used & ((1 << s) - 1));
            id += (s - 1 - smallerUsed) * factorial[n - 1 - i];
            used |= 1 << s;
        }
        return id;
    }

    /** Writes the permutation of node {@code id} into {@code out} (length n). */
    void unrank(int id, int[] out) {
        int free = ((1 << (n + 1)) - 1) & ~1; // symbols 1..n
        int rest = id;
        for (int i = 0; i < n; i++) {
            int f = factorial[n - 1 - i];
            int k = rest / f;
            rest -= k * f;
            int s = free;
            for (int j = 0; j < k; j++) {
                s &= s - 1; // drop the lowest free symbol
            }
            int symbol = Integer.numberOfTrailingZeros(s);
            out[i] = symbol;
            free &= ~(1 << symbol);
        }
    }

    /** The node reached from {@code id} over the link swapping positions 0 and {@code position}. */
    int neighbor(int id, int position, int[] scratch) {
        unrank(id, scratch);
        swap(scratch, 0, position);
        return rank(scratch);
    }

    /**
     * The position (1..n-1) whose swap with position 0 leads from {@code a} to {@code b}, or -1
     * when the two permutations are not adjacent.
     */
    int linkPosition(int[] a, int[] b) {
        int differ = -1;
        for (int i = 1; i < n; i++) {
            if (a[i] != b[i]) {
                if (differ >= 0) {
                    return -1;
                }
                differ = i;
            }
        }
        return differ > 0 && a[0] == b[differ] && a[differ] == b[0] ? differ : -1;
    }

    static void swap(int[] p, int i, int j) {
        int t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
}
