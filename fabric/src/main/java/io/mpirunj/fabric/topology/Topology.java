package io.mpirunj.fabric.topology;

/**
 * A direct network: nodes, the directed links between them (channels), and the default route
 * between any two nodes. Immutable and thread-safe.
 *
 * <h2>Numbering</h2>
 * Nodes are {@code 0..nodes()-1}. Every node has {@link #degree()} link <em>directions</em>
 * (some may lead nowhere, e.g. at a mesh border); the directed link leaving {@code node} in
 * direction {@code d} is channel {@code node * degree() + d}, so link channels are
 * {@code 0..linkChannels()-1}. Each direction of a physical link is its own channel.
 *
 * <h2>Specs</h2>
 * {@link #parse} reads the one-line specs used on the command line; {@code toString()} gives
 * the canonical spec back:
 * <pre>
 *   mesh:16x16      n-dimensional mesh, extents written highest dimension first
 *   torus:4x4x4     the same with wrap-around links
 *   hypercube:4     the binary 4-cube (a 2x2x2x2 mesh)
 *   star:5          the star graph S_5 (nodes are the permutations of 1..5)
 *   complete:8      every pair of the 8 nodes directly linked
 * </pre>
 */
public interface Topology {

    /** Number of nodes. */
    int nodes();

    /** Link directions per node; link channel of (node, d) is {@code node * degree() + d}. */
    int degree();

    /** The node reached from {@code node} in direction {@code d}, or -1 when that link does not exist. */
    int neighbor(int node, int direction);

    /** The direction of the link {@code from -> to}, or -1 when the nodes are not adjacent. */
    int direction(int from, int to);

    /**
     * The default route from {@code src} to {@code dst} as the list of nodes visited, both ends
     * included ({@code [src]} when they are equal). Dimension-ordered on meshes and tori.
     */
    int[] route(int src, int dst);

    /** Human-readable node address, e.g. {@code 3/2} on a mesh or {@code 2134} on a star graph. */
    String label(int node);

    /** Parses a node address as {@link #label} writes it; one-line {@link IllegalArgumentException} otherwise. */
    int node(String label);

    /** Number of link channels: {@code nodes() * degree()}. */
    default int linkChannels() {
        return nodes() * degree();
    }

    /** The link channel {@code from -> to}; the nodes must be adjacent. */
    default int channel(int from, int to) {
        int d = direction(from, to);
        if (d < 0) {
            throw new IllegalArgumentException("nodes " + label(from) + " and " + label(to)
                    + " are not adjacent in " + this);
        }
        return from * degree() + d;
    }

    /** Readable name of link channel {@code c}: {@code 3/2->4/2}. */
    default String channelLabel(int c) {
        int from = c / degree();
        return label(from) + "->" + label(neighbor(from, c % degree()));
    }

    /**
     * Checks that {@code path} is a walk over existing links, starting at {@code src} and ending at
     * {@code dst}, and returns its link channels in order.
     */
    default int[] channels(int[] path, int src, int dst) {
        if (path.length == 0 || path[0] != src || path[path.length - 1] != dst) {
            throw new IllegalArgumentException("path must start at " + label(src) + " and end at " + label(dst));
        }
        int[] channels = new int[path.length - 1];
        for (int i = 0; i + 1 < path.length; i++) {
            channels[i] = channel(path[i], path[i + 1]);
        }
        return channels;
    }

    /** Parses a topology spec; see the interface comment for the forms. */
    static Topology parse(String spec) {
        return TopologySpec.parse(spec);
    }
}
