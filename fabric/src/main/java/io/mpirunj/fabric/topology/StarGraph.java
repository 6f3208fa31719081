package io.mpirunj.fabric.topology;

/**
 * The star graph S_n (paper 004): n! nodes, the permutations a_1...a_n of the symbols 1..n;
 * direction {@code d} (0..n-2) is generator g_{d+2}, which swaps a_1 with a_{d+2}. Degree n-1,
 * diameter floor(3(n-1)/2).
 *
 * <p>Node ids are the lexicographic ranks of the permutations ({@code 12...n} is 0); labels are
 * the symbols written out, e.g. {@code 2134} (paper 004's letters: a=1, b=2, ...; {@link #node}
 * accepts either form). The default route is the classic minimal one (Akers and Krishnamurthy):
 * while the first symbol is not home, send it home; otherwise swap it with any misplaced symbol.
 * Broadcast algorithms choose their own paths (see the wormhole engine's explicit paths).
 */
public final class StarGraph implements Topology {

    /** Largest n accepted (9! = 362880 nodes). */
    public static final int MAX_SYMBOLS = 9;

    private final int n;
    private final int nodes;
    private final int[] factorial;

    public StarGraph(int n) {
        if (n < 2 || n > MAX_SYMBOLS) {
            throw new IllegalArgumentException("star graph size n=" + n + " (expected: 2.." + MAX_SYMBOLS + ")");
        }
        this.n = n;
        factorial = new int[n + 1];
        factorial[0] = 1;
        for (int i = 1; i <= n; i++) {
            factorial[i] = factorial[i - 1] * i;
        }
        nodes = factorial[n];
    }

    /** The permutation of node {@code id}: symbols 1..n, position 0 first. */
    public int[] permutation(int id) {
        if (id < 0 || id >= nodes) {
            throw new IllegalArgumentException("node " + id + " (expected: 0.." + (nodes - 1) + ")");
        }
        int[] p = new int[n];
        unrank(id, p);
        return p;
    }

    /** The node of a permutation of 1..n. */
    public int node(int[] permutation) {
        if (permutation.length != n) {
            throw new IllegalArgumentException("permutation of length " + permutation.length + " (expected: " + n + ")");
        }
        int used = 0;
        for (int i = 0; i < n; i++) {
            int s = permutation[i];
            if (s < 1 || s > n || (used & (1 << s)) != 0) {
                throw new IllegalArgumentException("not a permutation of 1.." + n + ": symbol " + s + " at position " + i);
            }
            used |= 1 << s;
        }
        return rank(permutation);
    }

    /** The number of symbols n. */
    public int symbols() {
        return n;
    }

    /** k! for 0 <= k <= n. */
    public int factorial(int k) {
        return factorial[k];
    }

    // The unchecked, allocation-free forms below are for the star-graph schedule builders, which rank
    // millions of permutations at n = 9. Positions are 0-based: position i is direction i - 1.

    /** The node of {@code p}, which must be a permutation of 1..n (not checked). */
    public int rank(int[] p) {
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

    /** Writes the permutation of node {@code id} (0 <= id < nodes, not checked) into {@code out} (length n). */
    public void unrank(int id, int[] out) {
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

    /** The node reached from {@code id} over the link swapping positions 0 and {@code position}; {@code scratch} has length n. */
    public int neighbor(int id, int position, int[] scratch) {
        unrank(id, scratch);
        swap(scratch, 0, position);
        return rank(scratch);
    }

    /**
     * The position (1..n-1) whose swap with position 0 leads from permutation {@code a} to {@code b},
     * or -1 when the two are not adjacent.
     */
    public int linkPosition(int[] a, int[] b) {
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

    /** Swaps {@code p[i]} and {@code p[j]}. */
    public static void swap(int[] p, int i, int j) {
        int t = p[i];
        p[i] = p[j];
        p[j] = t;
    }

    @Override
    public int nodes() {
        return nodes;
    }

    @Override
    public int degree() {
        return n - 1;
    }

    @Override
    public int neighbor(int node, int direction) {
        if (direction < 0 || direction >= n - 1) {
            return -1;
        }
        int[] p = permutation(node);
        swap(p, 0, direction + 1);
        return node(p);
    }

    @Override
    public int direction(int from, int to) {
        int position = linkPosition(permutation(from), permutation(to));
        return position < 0 ? -1 : position - 1;
    }

    @Override
    public int[] route(int src, int dst) {
        int[] cur = permutation(src);
        int[] target = permutation(dst);
        int[] where = new int[n + 1];
        for (int i = 0; i < n; i++) {
            where[target[i]] = i;
        }
        int[] path = new int[3 * n];
        int hops = 0;
        path[hops++] = src;
        while (true) {
            int swapWith = where[cur[0]];
            if (swapWith == 0) {
                swapWith = -1;
                for (int i = 1; i < n; i++) {
                    if (cur[i] != target[i]) {
                        swapWith = i;
                        break;
                    }
                }
                if (swapWith < 0) {
                    break;
                }
            }
            swap(cur, 0, swapWith);
            path[hops++] = node(cur);
        }
        return java.util.Arrays.copyOf(path, hops);
    }

    @Override
    public String label(int node) {
        StringBuilder sb = new StringBuilder(n);
        for (int s : permutation(node)) {
            sb.append(s);
        }
        return sb.toString();
    }

    /** Parses {@code 2134} or paper 004's letters {@code badc} (a=1). */
    @Override
    public int node(String label) {
        String text = label == null ? "" : label.trim();
        if (text.length() != n) {
            throw new IllegalArgumentException("bad star graph node '" + label + "' (expected: a permutation of "
                    + n + " symbols like " + label(0) + " on " + this + ")");
        }
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            p[i] = c >= '1' && c <= '9' ? c - '0' : c >= 'a' && c <= 'i' ? c - 'a' + 1 : -1;
        }
        try {
            return node(p);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bad star graph node '" + label + "' (expected: a permutation of "
                    + n + " symbols like " + label(0) + " on " + this + ")");
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StarGraph other && other.n == n;
    }

    @Override
    public int hashCode() {
        return n;
    }

    @Override
    public String toString() {
        return "star:" + n;
    }
}
