package io.mpirunj.fabric.model;

import java.util.Arrays;
import java.util.Objects;

/**
 * Heterogeneous per-pair cost (paper 003, TTCC/ECEF): {@code cost(a, b, m) = latency(a, b) +
 * m / bandwidth(a, b)}.
 *
 * <p>t_end of a pair is its cost. t_hold is the cost too: in paper 003 a node does one send at a
 * time until it completes (and one receive at a time), so the sender is busy for the whole
 * transfer, not only for a software overhead. The model is not uniform: the size-only methods
 * throw. Matrices are copied; node indices are 0..nodes-1; the diagonal is ignored.
 *
 * <p>A model carries a {@linkplain #label() label} (where it came from, e.g. {@code pairs:FILE} or
 * {@code hetero:paper,nodes=100,seed=1,rep=3}): it is the model's {@code toString()}, so caches keyed
 * by the model's text tell two matrices apart. It also carries paper 003's α
 * ({@link #firstOfDecision()}). Files: {@link PairMatrixFile}; generated clusters: {@link ClusterNetwork}.
 */
public final class PairCostModel implements CostModel {

    private final double[][] latency;
    private final double[][] bandwidth;
    private final String label;
    private final double firstOfDecision;

    /**
     * @param latency   latency[a][b], model time units, finite and >= 0
     * @param bandwidth bandwidth[a][b], bytes per model time unit, > 0 (may be +infinity)
     */
    public PairCostModel(double[][] latency, double[][] bandwidth) {
        this(latency, bandwidth, null, 0);
    }

    /**
     * @param label           the model's text ({@code toString()}); null for {@code pair:nodes=N}
     * @param firstOfDecision paper 003's α, model time units, finite and >= 0
     */
    public PairCostModel(double[][] latency, double[][] bandwidth, String label, double firstOfDecision) {
        int n = latency.length;
        this.label = label == null ? "pair:nodes=" + n : label;
        this.firstOfDecision = Numbers.requireFiniteNonNegative("firstOfDecision", firstOfDecision);
        if (bandwidth.length != n) {
            throw new IllegalArgumentException("bandwidth has " + bandwidth.length
                    + " rows (expected: " + n + ", like latency)");
        }
        this.latency = new double[n][];
        this.bandwidth = new double[n][];
        for (int a = 0; a < n; a++) {
            if (latency[a].length != n || bandwidth[a].length != n) {
                throw new IllegalArgumentException("row " + a + " is not of length " + n);
            }
            this.latency[a] = latency[a].clone();
            this.bandwidth[a] = bandwidth[a].clone();
            for (int b = 0; b < n; b++) {
                if (a == b) {
                    continue;
                }
                double l = latency[a][b];
                double bw = bandwidth[a][b];
                if (!(l >= 0) || Double.isInfinite(l)) {
                    throw new IllegalArgumentException("latency[" + a + "][" + b + "]=" + l
                            + " (expected: finite, >= 0)");
                }
                if (!(bw > 0)) {
                    throw new IllegalArgumentException("bandwidth[" + a + "][" + b + "]=" + bw
                            + " (expected: > 0)");
                }
            }
        }
    }

    public int nodes() {
        return latency.length;
    }

    public double latency(int a, int b) {
        return latency[a][b];
    }

    /** Bytes per model time unit from a to b. */
    public double bandwidth(int a, int b) {
        return bandwidth[a][b];
    }

    /** Where the matrix came from; also {@code toString()}. */
    public String label() {
        return label;
    }

    /** The same matrices under another label. */
    public PairCostModel withLabel(String newLabel) {
        return new PairCostModel(latency, bandwidth, Objects.requireNonNull(newLabel, "label"), firstOfDecision);
    }

    /** The same matrices with paper 003's α set to {@code alpha}. */
    public PairCostModel withFirstOfDecision(double alpha) {
        return new PairCostModel(latency, bandwidth, label, alpha);
    }

    /**
     * The model restricted to (and renumbered by) {@code nodes}: node i of the result is node
     * {@code nodes[i]} of this one. A live collective whose schedule rank i runs on communicator
     * rank {@code nodes[i]} builds on this view. Labelled {@code label@[n0,n1,...]}.
     */
    public PairCostModel select(int[] nodes) {
        int k = nodes.length;
        double[][] l = new double[k][k];
        double[][] bw = new double[k][k];
        for (int i = 0; i < k; i++) {
            for (int j = 0; j < k; j++) {
                l[i][j] = latency[nodes[i]][nodes[j]];
                bw[i][j] = bandwidth[nodes[i]][nodes[j]];
            }
        }
        return new PairCostModel(l, bw, label + "@" + Arrays.toString(nodes).replace(" ", ""), firstOfDecision);
    }

    /**
     * The prediction of this network with relative error {@code factor[a][b]}: every pair's cost
     * for every size is multiplied by it (latency times the factor, bandwidth divided by it).
     *
     * @param factor factor[a][b] > 0 and finite off the diagonal
     */
    public PairCostModel distorted(double[][] factor, String newLabel) {
        int n = nodes();
        double[][] l = new double[n][n];
        double[][] bw = new double[n][n];
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
                double f = a == b ? 1 : factor[a][b];
                if (!(f > 0) || Double.isInfinite(f)) {
                    throw new IllegalArgumentException("factor[" + a + "][" + b + "]=" + f + " (expected: finite, > 0)");
                }
                l[a][b] = latency[a][b] * f;
                bw[a][b] = bandwidth[a][b] / f;
            }
        }
        return new PairCostModel(l, bw, newLabel, firstOfDecision);
    }

    /** The mean of {@link #cost} over the ordered pairs a != b (0 for one node). */
    public double meanCost(long bytes) {
        int n = nodes();
        if (n < 2) {
            return 0;
        }
        double sum = 0;
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
                if (a != b) {
                    sum += cost(a, b, bytes);
                }
            }
        }
        return sum / ((double) n * (n - 1));
    }

    /** Paper 003's α: how long a receiver takes to choose between two copies arriving at once. */
    @Override
    public double firstOfDecision() {
        return firstOfDecision;
    }

    /** latency(a, b) + bytes / bandwidth(a, b). */
    public double cost(int a, int b, long bytes) {
        return latency[a][b] + bytes / bandwidth[a][b];
    }

    @Override
    public double tHold(int src, int dst, long bytes) {
        return cost(src, dst, bytes);
    }

    @Override
    public double tEnd(int src, int dst, long bytes) {
        return cost(src, dst, bytes);
    }

    @Override
    public boolean uniform() {
        return false;
    }

    @Override
    public double tHold(long bytes) {
        throw new UnsupportedOperationException("a per-pair model has no uniform t_hold; use tHold(src, dst, bytes)");
    }

    @Override
    public double tEnd(long bytes) {
        throw new UnsupportedOperationException("a per-pair model has no uniform t_end; use tEnd(src, dst, bytes)");
    }

    /** The {@linkplain #label() label}: {@code pairs:FILE} parses back (see {@link ModelSpec}), others do not. */
    @Override
    public String toString() {
        return label;
    }
}
