package io.mpirunj.fabric.model;

import java.util.Random;

/**
 * A generated heterogeneous network (paper 003, after Bhat, Raghavendra and Prasanna 1999): nodes in
 * {@code clusters} equal contiguous clusters (node i is in cluster {@code i * clusters / nodes}); each
 * link's latency and bandwidth are drawn uniformly from the intra-cluster ranges when both ends share
 * a cluster, else from the inter-cluster ranges. Links are symmetric. Times in µs, bandwidths in
 * bytes/µs (numerically MB/s, with MB = 10^6 bytes).
 *
 * <p>{@link #PAPER}: 4 clusters; latency 10 µs–1 ms everywhere (the paper names 1–20 ms between
 * clusters, then says it used 10 µs–1 ms because larger latencies change little); bandwidth
 * 10–200 MB/s inside clusters, 10–50 KB/s between them. The paper does not say how many clusters;
 * 4 is our choice.
 */
public record ClusterNetwork(int clusters, Range intraLatency, Range intraBandwidth, Range interLatency,
                             Range interBandwidth) {

    /** A closed interval [low, high] with 0 <= low <= high, finite. */
    public record Range(double low, double high) {
        public Range {
            Numbers.requireFiniteNonNegative("low", low);
            Numbers.requireFiniteNonNegative("high", high);
            if (low > high) {
                throw new IllegalArgumentException("range " + low + "-" + high + " (expected: low <= high)");
            }
        }

        double draw(Random random) {
            return low + (high - low) * random.nextDouble();
        }

        @Override
        public String toString() {
            return Numbers.format(low) + "-" + Numbers.format(high);
        }
    }

    /** The paper's values; see the class comment. */
    public static final ClusterNetwork PAPER = new ClusterNetwork(4, new Range(10, 1000), new Range(10, 200),
            new Range(10, 1000), new Range(0.01, 0.05));

    public ClusterNetwork {
        if (clusters < 1) {
            throw new IllegalArgumentException("clusters=" + clusters + " (expected: >= 1)");
        }
        if (intraBandwidth.low() <= 0 || interBandwidth.low() <= 0) {
            throw new IllegalArgumentException("bandwidth ranges " + intraBandwidth + ", " + interBandwidth
                    + " (expected: > 0)");
        }
    }

    /** Cluster of node {@code i} of {@code nodes}. */
    public int clusterOf(int i, int nodes) {
        return (int) ((long) i * clusters / nodes);
    }

    /** A network of {@code nodes} nodes drawn from {@code random}, labelled {@code label}. */
    public PairCostModel generate(int nodes, Random random, String label) {
        if (nodes < 1) {
            throw new IllegalArgumentException("nodes=" + nodes + " (expected: >= 1)");
        }
        double[][] latency = new double[nodes][nodes];
        double[][] bandwidth = new double[nodes][nodes];
        for (int a = 0; a < nodes; a++) {
            bandwidth[a][a] = 1;
            for (int b = a + 1; b < nodes; b++) {
                boolean intra = clusterOf(a, nodes) == clusterOf(b, nodes);
                double l = (intra ? intraLatency : interLatency).draw(random);
                double bw = (intra ? intraBandwidth : interBandwidth).draw(random);
                latency[a][b] = l;
                latency[b][a] = l;
                bandwidth[a][b] = bw;
                bandwidth[b][a] = bw;
            }
        }
        return new PairCostModel(latency, bandwidth, label, 0);
    }

    /** The spec that parses back to this generator (see {@link HeteroSpec}). */
    @Override
    public String toString() {
        return "clusters:" + clusters + ",intra-lat=" + intraLatency + ",intra-bw=" + intraBandwidth
                + ",inter-lat=" + interLatency + ",inter-bw=" + interBandwidth;
    }
}
