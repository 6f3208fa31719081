package io.mpirunj.runtime.fabric;

import io.mpirunj.fabric.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The faults an emulated fabric injects ({@code mpirun-j --fabric-fault}, several joined by {@code ;}):
 * <pre>
 *   slow:A-B:F       the link between nodes A and B (both directions) is F times slower: a message
 *                    crossing it spends F times its uncontended network time t_net in the network
 *   drop:A-B@T       the link between A and B goes down at model time T (drop:A-B: from the start);
 *                    a message crossing it that would be delivered after T is lost
 *   jitter:S[:SEED]  every message is late by |N(0, S)| model units (seeded: reproducible)
 * </pre>
 * A and B are node addresses as the topology writes them ({@code 1/2} on a mesh, {@code 5} on
 * {@code complete:N}); they must be adjacent. Immutable.
 */
public record FabricFaults(List<LinkFault> links, double jitterSigma, long jitterSeed) {

    /** One fault, as {@code mpirun-j --fabric-fault} takes it (the option is repeated for more). */
    public static final String ONE_FORM = "slow:A-B:FACTOR, drop:A-B[@TIME] or jitter:SIGMA[:SEED]";
    /** A fault spec: one or more faults (as {@code MPIRUNJ_FABRIC_FAULT} holds them). */
    public static final String FORM = ONE_FORM + ", joined by ';'";

    /** No faults. */
    public static final FabricFaults NONE = new FabricFaults(List.of(), 0, 0);

    public FabricFaults {
        links = List.copyOf(links);
    }

    /** A slowed or dropped link between nodes {@code a} and {@code b}. */
    public record LinkFault(int a, int b, String label, double slowdown, double dropAt) {
        /** True if {@code path} (nodes) crosses this link in either direction. */
        boolean crossedBy(int[] path) {
            for (int i = 0; i + 1 < path.length; i++) {
                if (path[i] == a && path[i + 1] == b || path[i] == b && path[i + 1] == a) {
                    return true;
                }
            }
            return false;
        }

        boolean drops() {
            return !Double.isNaN(dropAt);
        }
    }

    /** Parses a fault spec (see the class comment) on {@code topology}; null or blank gives {@link #NONE}. */
    public static FabricFaults parse(String spec, Topology topology) {
        return parse(spec, topology, "fabric fault", FORM);
    }

    /**
     * As {@link #parse(String, Topology)}, a bad fault reported as {@code name 'fault': reason}, with
     * {@code (expected: form)} when the reason does not say what was expected: {@code mpirun-j} names its option
     * ({@code --fabric-fault}) and {@link #ONE_FORM}, since the option takes one fault per use.
     */
    public static FabricFaults parse(String spec, Topology topology, String name, String form) {
        if (spec == null || spec.isBlank()) {
            return NONE;
        }
        List<LinkFault> links = new ArrayList<>();
        double sigma = 0;
        long seed = 1;
        for (String raw : spec.split(";")) {
            String token = raw.trim();
            if (token.isEmpty()) {
                continue;
            }
            String lower = token.toLowerCase(Locale.ROOT);
            try {
                if (lower.startsWith("slow:")) {
                    String[] parts = token.substring(5).split(":");
                    if (parts.length != 2) {
                        throw new IllegalArgumentException("not slow:A-B:FACTOR");
                    }
                    double factor = number(parts[1], "FACTOR");
                    if (factor < 1) {
                        throw new IllegalArgumentException("FACTOR " + parts[1] + " must be >= 1");
                    }
                    links.add(link(parts[0], topology, factor, Double.NaN));
                } else if (lower.startsWith("drop:")) {
                    String body = token.substring(5);
                    int at = body.indexOf('@');
                    double time = at < 0 ? 0 : number(body.substring(at + 1), "TIME");
                    links.add(link(at < 0 ? body : body.substring(0, at), topology, 1, time));
                } else if (lower.startsWith("jitter:")) {
                    String[] parts = token.substring(7).split(":");
                    if (parts.length > 2) {
                        throw new IllegalArgumentException("not jitter:SIGMA[:SEED]");
                    }
                    sigma = number(parts[0], "SIGMA");
                    if (parts.length == 2) {
                        seed = (long) number(parts[1], "SEED");
                    }
                } else {
                    throw new IllegalArgumentException("unknown fault kind '" + token.split(":", 2)[0] + "'");
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(name + " '" + token + "': " + e.getMessage()
                        + (e.getMessage().contains("(expected") ? "" : " (expected: " + form + ")"));
            }
        }
        return new FabricFaults(links, sigma, seed);
    }

    private static LinkFault link(String text, Topology topology, double slowdown, double dropAt) {
        String[] ends = text.trim().split("-");
        if (ends.length != 2) {
            throw new IllegalArgumentException("link '" + text + "' (expected A-B, two node addresses)");
        }
        int a = topology.node(ends[0].trim());
        int b = topology.node(ends[1].trim());
        if (topology.direction(a, b) < 0) {
            throw new IllegalArgumentException("nodes " + ends[0].trim() + " and " + ends[1].trim()
                    + " are not adjacent in " + topology);
        }
        return new LinkFault(a, b, topology.label(a) + "-" + topology.label(b), slowdown, dropAt);
    }

    private static double number(String text, String what) {
        try {
            double v = Double.parseDouble(text.trim());
            if (!(v >= 0) || Double.isInfinite(v)) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " '" + text.trim() + "' is not a non-negative number");
        }
    }

    public boolean isEmpty() {
        return links.isEmpty() && jitterSigma == 0;
    }
}
