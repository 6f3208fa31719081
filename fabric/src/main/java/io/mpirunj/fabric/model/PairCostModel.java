package io.mpirunj.fabric.model;

/**
 * Heterogeneous per-pair cost (paper 003, TTCC/ECEF): {@code cost(a, b, m) = latency(a, b) +
 * m / bandwidth(a, b)}.
 *
 * <p>t_end of a pair is its cost. t_hold is the cost too: in paper 003 a node does one send at a
 * time until it completes (and one receive at a time), so the sender is busy for the whole
 * transfer, not only for a software overhead. The model is not uniform: the size-only methods
 * throw. Matrices are copied; node indices are 0..nodes-1; the diagonal is ignored.
 */
public final class PairCostModel implements CostModel {

    private final double[][] latency;
    private final double[][] bandwidth;

    /**
     * @param latency   latency[a][b], model time units, finite and >= 0
     * @param bandwidth bandwidth[a][b], bytes per model time unit, > 0 (may be +infinity)
     */
    public PairCostModel(double[][] latency, double[][] bandwidth) {
        int n = latency.length;
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

    /** Not a parseable spec: a matrix has no one-line form. */
    @Override
    public String toString() {
        return "pair:nodes=" + nodes();
    }
}
