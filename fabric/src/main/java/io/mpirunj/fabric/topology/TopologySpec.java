package io.mpirunj.fabric.topology;

import java.util.Locale;

/** The parser behind {@link Topology#parse}. */
final class TopologySpec {

    static final String FORMS = "mesh:AxB[xC...], torus:AxB[xC...], hypercube:D, star:N or complete:N";

    private TopologySpec() {
    }

    static Topology parse(String spec) {
        String text = spec == null ? "" : spec.trim().toLowerCase(Locale.ROOT);
        int colon = text.indexOf(':');
        if (colon < 0) {
            throw bad(spec);
        }
        String kind = text.substring(0, colon).trim();
        String body = text.substring(colon + 1).trim();
        try {
            return switch (kind) {
                case "mesh" -> Mesh.mesh(extents(spec, body));
                case "torus" -> Mesh.torus(extents(spec, body));
                case "hypercube" -> Mesh.hypercube(integer(spec, body));
                case "star" -> new StarGraph(integer(spec, body));
                case "complete" -> new CompleteGraph(integer(spec, body));
                default -> throw bad(spec);
            };
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("topology spec")) {
                throw e;
            }
            throw new IllegalArgumentException("topology spec '" + spec + "': " + e.getMessage());
        }
    }

    private static int[] extents(String spec, String body) {
        String[] parts = body.split("x", -1);
        int[] extents = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            extents[i] = integer(spec, parts[i].trim());
            if (extents[i] < 1) {
                throw new IllegalArgumentException("topology spec '" + spec + "': extent " + extents[i]
                        + " (expected: >= 1)");
            }
        }
        return extents;
    }

    private static int integer(String spec, String text) {
        if (!text.matches("[0-9]{1,9}")) {
            throw bad(spec);
        }
        return Integer.parseInt(text);
    }

    private static IllegalArgumentException bad(String spec) {
        return new IllegalArgumentException("topology spec '" + spec + "' not understood (expected: " + FORMS + ")");
    }
}
