package io.mpirunj.fabric.placement;

import io.mpirunj.fabric.topology.Topology;
import java.util.Random;

/**
 * Where the ranks of a job (or the members of a multicast group) sit on a topology's nodes:
 * {@code nodeOf[rank]}. Every rank gets its own node.
 *
 * <pre>
 *   identity          rank i on node i
 *   3/2,1/5,2/1       rank i on the node with the i-th address (rank 0 is the root of a
 *                     multicast); exactly one address per rank, all different
 *   random:SEED       a uniformly random set of distinct nodes in random order, reproducible:
 *                     java.util.Random(SEED) drives a partial Fisher-Yates shuffle of 0..nodes-1
 * </pre>
 */
public final class Placement {

    public static final String FORMS = "identity, random:SEED or a list of node addresses like 3/2,1/5,2/1";

    private Placement() {
    }

    /**
     * Parses a placement spec for {@code ranks} ranks on {@code topology}.
     *
     * @return nodeOf, of length {@code ranks}, distinct node ids
     * @throws IllegalArgumentException (one line) on a bad spec, too many ranks, a repeated node
     *                                  or a wrong number of addresses
     */
    public static int[] parse(String spec, Topology topology, int ranks) {
        if (ranks < 1) {
            throw new IllegalArgumentException("ranks=" + ranks + " (expected: >= 1)");
        }
        if (ranks > topology.nodes()) {
            throw new IllegalArgumentException("cannot place " + ranks + " ranks on " + topology + " ("
                    + topology.nodes() + " nodes)");
        }
        String text = spec == null ? "" : spec.trim();
        if (text.isEmpty()) {
            throw new IllegalArgumentException("empty placement spec (expected: " + FORMS + ")");
        }
        if (text.equals("identity")) {
            return identity(ranks);
        }
        if (text.startsWith("random:")) {
            String seed = text.substring("random:".length()).trim();
            if (!seed.matches("-?[0-9]{1,19}")) {
                throw new IllegalArgumentException("placement spec '" + spec + "': bad seed '" + seed
                        + "' (expected: random:SEED with an integer SEED)");
            }
            long value;
            try {
                value = Long.parseLong(seed);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("placement spec '" + spec + "': seed out of range (expected: a long)");
            }
            return random(topology.nodes(), ranks, value);
        }
        return explicit(spec, text, topology, ranks);
    }

    /**
     * How many ranks {@code spec} places by itself: the number of addresses of an explicit list, or
     * -1 for {@code identity} and {@code random:SEED}, which fit any number of ranks.
     */
    public static int listedRanks(String spec) {
        String text = spec == null ? "" : spec.trim();
        if (text.isEmpty() || text.equals("identity") || text.startsWith("random:")) {
            return -1;
        }
        return text.split(",", -1).length;
    }

    /** rank i on node i. */
    public static int[] identity(int ranks) {
        int[] nodeOf = new int[ranks];
        for (int i = 0; i < ranks; i++) {
            nodeOf[i] = i;
        }
        return nodeOf;
    }

    /** {@code ranks} distinct random nodes out of {@code nodes}, reproducible from the seed. */
    public static int[] random(int nodes, int ranks, long seed) {
        if (ranks > nodes) {
            throw new IllegalArgumentException("ranks=" + ranks + " > nodes=" + nodes);
        }
        int[] all = identity(nodes);
        Random random = new Random(seed);
        for (int i = 0; i < ranks; i++) {
            int j = i + random.nextInt(nodes - i);
            int t = all[i];
            all[i] = all[j];
            all[j] = t;
        }
        return java.util.Arrays.copyOf(all, ranks);
    }

    private static int[] explicit(String spec, String text, Topology topology, int ranks) {
        String[] tokens = text.split(",", -1);
        if (tokens.length != ranks) {
            throw new IllegalArgumentException("placement spec '" + spec + "' lists " + tokens.length
                    + " nodes (expected: one per rank, " + ranks + ")");
        }
        int[] nodeOf = new int[ranks];
        int[] owner = new int[topology.nodes()];
        java.util.Arrays.fill(owner, -1);
        for (int r = 0; r < ranks; r++) {
            int node;
            try {
                node = topology.node(tokens[r]);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("placement spec '" + spec + "', rank " + r + ": " + e.getMessage());
            }
            if (owner[node] >= 0) {
                throw new IllegalArgumentException("placement spec '" + spec + "': node " + topology.label(node)
                        + " given to ranks " + owner[node] + " and " + r + " (expected: distinct nodes)");
            }
            owner[node] = r;
            nodeOf[r] = node;
        }
        return nodeOf;
    }
}
