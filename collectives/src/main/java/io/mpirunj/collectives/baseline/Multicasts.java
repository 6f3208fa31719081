package io.mpirunj.collectives.baseline;

import java.util.Arrays;

/** The participant list shared by the multicast algorithms. */
final class Multicasts {
    private Multicasts() {
    }

    /**
     * The root followed by the group's ranks in their given order, without the root and without
     * repeats. Every participant computes the same list from the same arguments.
     */
    static int[] participants(int root, int[] group) {
        int[] out = new int[group.length + 1];
        int n = 0;
        out[n++] = root;
        for (int g : group) {
            boolean seen = false;
            for (int i = 0; i < n && !seen; i++) {
                seen = out[i] == g;
            }
            if (!seen) {
                out[n++] = g;
            }
        }
        return Arrays.copyOf(out, n);
    }

    /** Index of {@code rank} in {@code ranks}, or -1. */
    static int indexOf(int[] ranks, int rank) {
        for (int i = 0; i < ranks.length; i++) {
            if (ranks[i] == rank) {
                return i;
            }
        }
        return -1;
    }
}
