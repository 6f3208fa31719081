package io.mpirunj.benchmarks.osu;

/** Nearest-rank percentiles. */
final class Percentiles {
    private Percentiles() {
    }

    /**
     * The {@code p}-th percentile of {@code sorted} (ascending) by the nearest-rank method: the
     * smallest value with at least p% of the values at or below it; NaN when empty.
     */
    static double of(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
    }
}
