package io.mpirunj.fabric.wormhole;

import java.util.Locale;

/**
 * How a node is attached to its router.
 * <ul>
 *   <li>{@link #ONE_PORT}: one injection channel (node -> router) and one ejection channel
 *       (router -> node); the simulator lets a node have one send in flight (ports = 1).</li>
 *   <li>{@link #ALL_PORT}: one injection and one ejection channel per link direction, so worms
 *       leaving (or arriving) along different links never meet at the node; ports = the
 *       topology's degree. A worm injects on the port of its first link and ejects on the port
 *       facing the node it arrives from.</li>
 * </ul>
 */
public enum NodeModel {
    ONE_PORT("one-port"),
    ALL_PORT("all-port");

    private final String spec;

    NodeModel(String spec) {
        this.spec = spec;
    }

    /** {@code one-port} or {@code all-port}. */
    public static NodeModel parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        for (NodeModel m : values()) {
            if (m.spec.equals(t)) {
                return m;
            }
        }
        throw new IllegalArgumentException("node model '" + text + "' (expected: one-port or all-port)");
    }

    @Override
    public String toString() {
        return spec;
    }
}
