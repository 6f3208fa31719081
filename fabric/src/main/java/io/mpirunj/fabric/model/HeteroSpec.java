package io.mpirunj.fabric.model;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

/**
 * Where a heterogeneous (per-pair) network comes from, as one line:
 *
 * <pre>
 *   paper                                  {@link ClusterNetwork#PAPER}, a new network per seed
 *   clusters:C[,intra-lat=A-B][,intra-bw=A-B][,inter-lat=A-B][,inter-bw=A-B]
 *                                          C clusters; latency in µs, bandwidth in MB/s (= bytes/µs);
 *                                          ranges not given are the paper's
 *   file:PATH                              a fixed matrix, {@link PairMatrixFile} format
 * </pre>
 *
 * A generated network is drawn anew for every seed; a file is the same network every time.
 *
 * @param text the spec as parsed (its {@link #toString()})
 * @param generator what draws the network ({@code paper}, {@code clusters:}), or null for a file
 * @param matrix the file's matrix, or null for a generator
 */
public record HeteroSpec(String text, ClusterNetwork generator, PairCostModel matrix) {

    public static final String FORM = "paper, clusters:C[,intra-lat=A-B][,intra-bw=A-B][,inter-lat=A-B]"
            + "[,inter-bw=A-B] (µs, MB/s) or file:PATH";

    /** A spec has exactly one of a generator and a matrix. */
    public HeteroSpec {
        if ((generator == null) == (matrix == null)) {
            throw new IllegalArgumentException("hetero spec '" + text + "' (expected: a generator or a matrix, not "
                    + (generator == null ? "neither" : "both") + ")");
        }
    }

    /** Parses a spec (a file is read now); errors are one line naming the bad part. */
    public static HeteroSpec parse(String spec) {
        String text = spec == null ? "" : spec.trim();
        if (text.equalsIgnoreCase("paper")) {
            return new HeteroSpec("paper", ClusterNetwork.PAPER, null);
        }
        if (text.startsWith("file:")) {
            String path = text.substring("file:".length());
            if (path.isBlank()) {
                throw new IllegalArgumentException("hetero spec '" + spec + "': no path after file: (expected: " + FORM + ")");
            }
            return new HeteroSpec(text, null, PairMatrixFile.read(Path.of(path)));
        }
        if (text.startsWith("clusters:")) {
            return new HeteroSpec(text, clusters(spec, text.substring("clusters:".length())), null);
        }
        throw new IllegalArgumentException("hetero spec '" + spec + "' (expected: " + FORM + ")");
    }

    private static ClusterNetwork clusters(String spec, String body) {
        String[] parts = body.split(",", -1);
        int clusters;
        try {
            clusters = Integer.parseInt(parts[0].trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("hetero spec '" + spec + "': clusters '" + parts[0].trim()
                    + "' (expected: a whole number >= 1 after clusters:)");
        }
        Map<String, ClusterNetwork.Range> ranges = new LinkedHashMap<>();
        ClusterNetwork p = ClusterNetwork.PAPER;
        ranges.put("intra-lat", p.intraLatency());
        ranges.put("intra-bw", p.intraBandwidth());
        ranges.put("inter-lat", p.interLatency());
        ranges.put("inter-bw", p.interBandwidth());
        for (int i = 1; i < parts.length; i++) {
            String token = parts[i].trim();
            int eq = token.indexOf('=');
            String key = eq < 0 ? token : token.substring(0, eq);
            if (eq < 0 || !ranges.containsKey(key)) {
                throw new IllegalArgumentException("hetero spec '" + spec + "': bad token '" + token
                        + "' (expected: intra-lat=, intra-bw=, inter-lat= or inter-bw= with a range A-B)");
            }
            ranges.put(key, range(spec, token.substring(eq + 1)));
        }
        try {
            return new ClusterNetwork(clusters, ranges.get("intra-lat"), ranges.get("intra-bw"),
                    ranges.get("inter-lat"), ranges.get("inter-bw"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("hetero spec '" + spec + "': " + e.getMessage());
        }
    }

    private static ClusterNetwork.Range range(String spec, String value) {
        String[] ends = value.split("-", -1);
        try {
            if (ends.length == 1) {
                double v = Double.parseDouble(ends[0].trim());
                return new ClusterNetwork.Range(v, v);
            }
            if (ends.length == 2) {
                return new ClusterNetwork.Range(Double.parseDouble(ends[0].trim()), Double.parseDouble(ends[1].trim()));
            }
        } catch (IllegalArgumentException e) {
            // NumberFormatException or a bad range: reported below with the expected form
            throw new IllegalArgumentException("hetero spec '" + spec + "': range '" + value
                    + "' (expected: A-B with 0 <= A <= B, or one number)");
        }
        throw new IllegalArgumentException("hetero spec '" + spec + "': range '" + value
                + "' (expected: A-B with 0 <= A <= B, or one number)");
    }

    /** True when every seed gives the same network (a file). */
    public boolean fixed() {
        return matrix != null;
    }

    /** The file's node count, or -1 for a generator (any count). */
    public int fixedNodes() {
        return matrix == null ? -1 : matrix.nodes();
    }

    /**
     * The real network (paper 003's M0) for {@code nodes} nodes: the file's matrix, or a network drawn
     * from {@code random}.
     */
    public PairCostModel real(int nodes, Random random, String label) {
        if (matrix != null) {
            if (nodes != matrix.nodes()) {
                throw new IllegalArgumentException(text + " has " + matrix.nodes() + " nodes (expected: " + nodes + ")");
            }
            return matrix;
        }
        return generator.generate(nodes, random, label);
    }

    @Override
    public String toString() {
        return text;
    }
}
