package io.mpirunj.collectives.baseline;

/**
 * Counts and displacements of {@code p} equal blocks of {@code n} elements laid end to end, so
 * every fixed-count collective can run its per-rank-count ("v") algorithm.
 */
final class Layout {
    final int[] counts;
    final int[] displs;

    private Layout(int p, int n) {
        counts = new int[p];
        displs = new int[p];
        for (int i = 0; i < p; i++) {
            counts[i] = n;
            displs[i] = i * n;
        }
    }

    static Layout uniform(int p, int n) {
        return new Layout(p, n);
    }
}
