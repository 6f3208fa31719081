package io.mpirunj.fabric.model;

import java.util.Random;

/**
 * Paper 003's prediction M1 of a real network M0: every link's cost multiplied by {@code |1 + ε|},
 * ε ~ N(μ, σ), one draw per link (both directions alike, as the networks are symmetric). A cost
 * cannot be negative, so an error below -100 % keeps its size with the sign turned (reflection, not
 * clamping: clamping would give many links the same tiny factor, ranking them by their real cost
 * again). A factor below {@value #MIN_FACTOR} is raised to it, so no prediction is free.
 *
 * <p>The draws are kept apart from σ ({@link #normals}, then {@link #predict}), so one set of draws
 * serves every σ of a sweep and the curves over σ are smooth (common random numbers).
 */
public final class PredictionError {

    /** The smallest factor a predicted cost may have against the real one. */
    public static final double MIN_FACTOR = 0.001;

    private PredictionError() {
    }

    /** Standard normal draws z[a][b] = z[b][a] for a network of {@code nodes} nodes. */
    public static double[][] normals(int nodes, Random random) {
        double[][] z = new double[nodes][nodes];
        for (int a = 0; a < nodes; a++) {
            for (int b = a + 1; b < nodes; b++) {
                double v = random.nextGaussian();
                z[a][b] = v;
                z[b][a] = v;
            }
        }
        return z;
    }

    /** M1 from M0 = {@code real}: factor {@code max(MIN_FACTOR, |1 + mean + sigma * z[a][b]|)}. */
    public static PairCostModel predict(PairCostModel real, double mean, double sigma, double[][] z) {
        int n = real.nodes();
        if (z.length != n) {
            throw new IllegalArgumentException("z has " + z.length + " rows (expected: " + n + ")");
        }
        double[][] factor = new double[n][n];
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
                factor[a][b] = a == b ? 1 : Math.max(MIN_FACTOR, Math.abs(1 + mean + sigma * z[a][b]));
            }
        }
        return real.distorted(factor, real.label() + ",predicted(mean=" + Numbers.format(mean) + ",sigma="
                + Numbers.format(sigma) + ")");
    }
}
