package io.mpirunj.fabric.topology;

import java.util.Arrays;

/**
 * An n-dimensional mesh or torus, or the binary hypercube (the mesh 2x2x...x2).
 *
 * <h2>Addresses</h2>
 * Following paper 000, a node's address is {@code σ_{n-1} ... σ_0}, written highest dimension
 * first: on {@code mesh:6x6} the node {@code 3/2} has σ_1 = 3 and σ_0 = 2; the spec lists the
 * extents in the same order. Node ids are the addresses read as mixed-radix numbers (σ_0 least
 * significant), so {@code a <_d b} (the dimension-ordered relation: at the highest dimension where
 * they differ, a's coordinate is smaller) is exactly {@code a < b} on node ids.
 *
 * <h2>Links and routing</h2>
 * Written dimension w (0 = highest) has direction {@code 2w} (+1) and {@code 2w+1} (-1); a torus
 * wraps around. Routing is dimension-ordered, <em>highest dimension first</em> (the first
 * written coordinate is corrected first: on a 2D mesh, "X" is the first coordinate). This is the
 * order under which paper 000's dimension-ordered chains are contention-free, and the one its
 * figure 9 shows: the routes (4,4)->(5,4) and (4,4)->(5,1) share the channel (4,4)->(5,4). On a
 * torus each dimension goes the shorter way round; exactly half way round goes the + way.
 */
public final class Mesh implements Topology {

    /** What kind of spec produced the mesh (it changes only the spec text and the wrap links). */
    public enum Kind {
        MESH, TORUS, HYPERCUBE
    }

    /** Largest node count accepted, so ids and channel ids fit an int comfortably. */
    public static final int MAX_NODES = 1 << 22;

    private final Kind kind;
    private final int[] extent;
    private final int[] stride;
    private final int nodes;

    private Mesh(Kind kind, int[] extent) {
        this.kind = kind;
        this.extent = extent.clone();
        this.stride = new int[extent.length];
        long n = 1;
        for (int w = extent.length - 1; w >= 0; w--) {
            if (extent[w] < 1) {
                throw new IllegalArgumentException("extent " + extent[w] + " (expected: >= 1)");
            }
            stride[w] = (int) n;
            n *= extent[w];
            if (n > MAX_NODES) {
                throw new IllegalArgumentException(Arrays.toString(extent) + " has more than " + MAX_NODES + " nodes");
            }
        }
        this.nodes = (int) n;
    }

    /** A mesh with these extents, highest dimension first ({@code mesh(6, 6)} is {@code mesh:6x6}). */
    public static Mesh mesh(int... extents) {
        return new Mesh(Kind.MESH, checkDims(extents));
    }

    /** A torus with these extents, highest dimension first. */
    public static Mesh torus(int... extents) {
        return new Mesh(Kind.TORUS, checkDims(extents));
    }

    /** The binary {@code d}-cube: a 2x...x2 mesh, routed highest bit first (e-cube). */
    public static Mesh hypercube(int dimensions) {
        if (dimensions < 1 || dimensions > 22) {
            throw new IllegalArgumentException("hypercube dimension " + dimensions + " (expected: 1..22)");
        }
        int[] extents = new int[dimensions];
        Arrays.fill(extents, 2);
        return new Mesh(Kind.HYPERCUBE, extents);
    }

    private static int[] checkDims(int[] extents) {
        if (extents.length < 1) {
            throw new IllegalArgumentException("a mesh needs at least one dimension");
        }
        return extents;
    }

    public Kind kind() {
        return kind;
    }

    public boolean wraps() {
        return kind == Kind.TORUS;
    }

    /** Number of dimensions n. */
    public int dimensions() {
        return extent.length;
    }

    /** Extent of written dimension {@code w} (0 = highest dimension σ_{n-1}). */
    public int extent(int w) {
        return extent[w];
    }

    /** Coordinate of {@code node} in written dimension {@code w} (0 = highest). */
    public int coordinate(int node, int w) {
        return node / stride[w] % extent[w];
    }

    /** The node with these coordinates, highest dimension first. */
    public int node(int... coordinates) {
        if (coordinates.length != extent.length) {
            throw new IllegalArgumentException("address has " + coordinates.length + " coordinates (expected: "
                    + extent.length + " for " + this + ")");
        }
        int id = 0;
        for (int w = 0; w < extent.length; w++) {
            if (coordinates[w] < 0 || coordinates[w] >= extent[w]) {
                throw new IllegalArgumentException("coordinate " + coordinates[w] + " out of range (expected: 0.."
                        + (extent[w] - 1) + " in " + this + ")");
            }
            id += coordinates[w] * stride[w];
        }
        return id;
    }

    /** Paper 000's {@code <_d}: negative when a precedes b in the dimension-ordered chain. */
    public int compareDimensionOrder(int a, int b) {
        return Integer.compare(a, b);
    }

    @Override
    public int nodes() {
        return nodes;
    }

    @Override
    public int degree() {
        return 2 * extent.length;
    }

    @Override
    public int neighbor(int node, int direction) {
        int w = direction >> 1;
        int c = coordinate(node, w);
        int e = extent[w];
        int next = (direction & 1) == 0 ? c + 1 : c - 1;
        if (next < 0 || next >= e) {
            if (!wraps() || e < 2) {
                return -1;
            }
            next = (next + e) % e;
        }
        return node + (next - c) * stride[w];
    }

    @Override
    public int direction(int from, int to) {
        for (int d = 0; d < degree(); d++) {
            if (neighbor(from, d) == to) {
                return d;
            }
        }
        return -1;
    }

    @Override
    public int[] route(int src, int dst) {
        int hops = 0;
        int[] step = new int[extent.length];
        for (int w = 0; w < extent.length; w++) {
            int delta = coordinate(dst, w) - coordinate(src, w);
            if (wraps()) {
                int e = extent[w];
                int forward = ((delta % e) + e) % e;
                delta = forward <= e - forward ? forward : forward - e;
            }
            step[w] = delta;
            hops += Math.abs(delta);
        }
        int[] path = new int[hops + 1];
        int at = src;
        int i = 0;
        path[i++] = at;
        for (int w = 0; w < extent.length; w++) {
            int direction = 2 * w + (step[w] > 0 ? 0 : 1);
            for (int s = Math.abs(step[w]); s > 0; s--) {
                at = neighbor(at, direction);
                path[i++] = at;
            }
        }
        return path;
    }

    @Override
    public String label(int node) {
        if (node < 0 || node >= nodes) {
            throw new IllegalArgumentException("node " + node + " (expected: 0.." + (nodes - 1) + ")");
        }
        StringBuilder sb = new StringBuilder();
        for (int w = 0; w < extent.length; w++) {
            if (w > 0) {
                sb.append('/');
            }
            sb.append(coordinate(node, w));
        }
        return sb.toString();
    }

    /** Parses {@code 3/2} (highest dimension first); on a hypercube also a bit string like {@code 0110}. */
    @Override
    public int node(String label) {
        String text = label == null ? "" : label.trim();
        if (kind == Kind.HYPERCUBE && text.length() == extent.length && text.matches("[01]+") && extent.length > 1) {
            return Integer.parseInt(text, 2);
        }
        String[] parts = text.split("/", -1);
        if (parts.length != extent.length) {
            throw new IllegalArgumentException("bad node address '" + label + "' (expected: " + extent.length
                    + " coordinates like " + label(nodes - 1) + " on " + this + ")");
        }
        int[] c = new int[parts.length];
        for (int w = 0; w < parts.length; w++) {
            try {
                c[w] = Integer.parseInt(parts[w].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad node address '" + label + "' (expected: " + extent.length
                        + " coordinates like " + label(nodes - 1) + " on " + this + ")");
            }
            if (c[w] < 0 || c[w] >= extent[w]) {
                throw new IllegalArgumentException("node address '" + label + "' out of range on " + this
                        + " (expected: coordinate " + w + " in 0.." + (extent[w] - 1) + ")");
            }
        }
        return node(c);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Mesh other && kind == other.kind && Arrays.equals(extent, other.extent);
    }

    @Override
    public int hashCode() {
        return kind.hashCode() * 31 + Arrays.hashCode(extent);
    }

    @Override
    public String toString() {
        if (kind == Kind.HYPERCUBE) {
            return "hypercube:" + extent.length;
        }
        StringBuilder sb = new StringBuilder(kind == Kind.TORUS ? "torus:" : "mesh:");
        for (int w = 0; w < extent.length; w++) {
            if (w > 0) {
                sb.append('x');
            }
            sb.append(extent[w]);
        }
        return sb.toString();
    }
}
