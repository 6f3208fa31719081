package io.mpirunj.runtime.spi;

import io.mpirunj.runtime.RuntimeConfig;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * Every collective algorithm known to this rank, by operation and name, and the choice among them.
 * The order of choice follows Open MPI's tuned component: an algorithm forced for the operation
 * ({@code --coll bcast=opt-tree}, the {@value #PROP_NAME} system property or the {@value #ENV_NAME}
 * variable), else the registered algorithm of highest priority.
 *
 * <p>Immutable after construction; thread-safe.
 */
public final class CollectiveRegistry {
    /** System property holding a forced-algorithm spec, e.g. {@code bcast=opt-tree,alltoall=pairwise}. */
    public static final String PROP_NAME = "mpirunj.coll";
    /** Environment variable holding a forced-algorithm spec (what the launcher sets for its ranks). */
    public static final String ENV_NAME = "MPIRUNJ_COLL";

    private final Map<CollectiveOp, Map<String, CollectiveAlgorithm>> byOp = new EnumMap<>(CollectiveOp.class);
    private final Map<CollectiveOp, CollectiveAlgorithm> chosen = new EnumMap<>(CollectiveOp.class);

    /**
     * @param algorithms every available algorithm
     * @param forcedSpec forced choices ({@code op=name,...}), or null/empty for none
     * @throws IllegalArgumentException for a malformed spec, an unknown operation or algorithm, or a
     *     duplicate name; the message lists the valid choices
     */
    public CollectiveRegistry(List<? extends CollectiveAlgorithm> algorithms, String forcedSpec) {
        for (CollectiveAlgorithm a : algorithms) {
            Map<String, CollectiveAlgorithm> names = byOp.computeIfAbsent(a.op(), k -> new LinkedHashMap<>());
            CollectiveAlgorithm old = names.putIfAbsent(a.name(), a);
            if (old != null && old.getClass() != a.getClass()) {
                throw new IllegalArgumentException("two " + a.op().cliName() + " algorithms named '" + a.name()
                        + "': " + old.getClass().getName() + " and " + a.getClass().getName());
            }
        }
        for (Map.Entry<CollectiveOp, Map<String, CollectiveAlgorithm>> e : byOp.entrySet()) {
            CollectiveAlgorithm best = null;
            for (CollectiveAlgorithm a : e.getValue().values()) {
                if (best == null || a.priority() > best.priority()) {
                    best = a;
                }
            }
            chosen.put(e.getKey(), best);
        }
        for (Map.Entry<CollectiveOp, String> f : parseSpec(forcedSpec).entrySet()) {
            chosen.put(f.getKey(), lookup(f.getKey(), f.getValue()));
        }
    }

    /** A copy of {@code from}: the same algorithms and choices. */
    private CollectiveRegistry(CollectiveRegistry from) {
        for (Map.Entry<CollectiveOp, Map<String, CollectiveAlgorithm>> e : from.byOp.entrySet()) {
            byOp.put(e.getKey(), new LinkedHashMap<>(e.getValue()));
        }
        chosen.putAll(from.chosen);
    }

    /** The same algorithms with {@code spec}'s choices forced on top of this registry's. */
    public CollectiveRegistry withForced(String spec) {
        CollectiveRegistry out = new CollectiveRegistry(this);
        for (Map.Entry<CollectiveOp, String> f : parseSpec(spec).entrySet()) {
            out.chosen.put(f.getKey(), lookup(f.getKey(), f.getValue()));
        }
        return out;
    }

    /** The chosen algorithm's name for {@code op}, or null if none is registered. */
    public String chosenName(CollectiveOp op) {
        CollectiveAlgorithm a = chosen.get(op);
        return a == null ? null : a.name();
    }

    /** The algorithms of every {@link CollectiveProvider} visible to {@code loader}. */
    public static List<CollectiveAlgorithm> discover(ClassLoader loader) {
        List<CollectiveAlgorithm> all = new ArrayList<>();
        for (CollectiveProvider p : ServiceLoader.load(CollectiveProvider.class, loader)) {
            all.addAll(p.algorithms());
        }
        return all;
    }

    /** A registry of every algorithm visible to {@code loader}, forced as {@code config} says. */
    public static CollectiveRegistry of(RuntimeConfig config, ClassLoader loader) {
        return new CollectiveRegistry(discover(loader), config.forcedCollectives());
    }

    /** A registry of every discoverable algorithm, forced as the property or environment says. */
    public static CollectiveRegistry fromEnvironment() {
        return of(RuntimeConfig.from(System.getenv()), CollectiveRegistry.class.getClassLoader());
    }

    /**
     * Parses {@code op=name[,op=name...]} into a map, checking only the syntax and the operation
     * names. Null or blank gives an empty map.
     */
    public static Map<CollectiveOp, String> parseSpec(String spec) {
        Map<CollectiveOp, String> out = new EnumMap<>(CollectiveOp.class);
        if (spec == null || spec.isBlank()) {
            return out;
        }
        for (String part : spec.split(",")) {
            String p = part.trim();
            int eq = p.indexOf('=');
            if (eq <= 0 || eq == p.length() - 1) {
                throw new IllegalArgumentException("bad collective spec '" + p + "' in '" + spec
                        + "' (expected: op=algorithm[,op=algorithm...], e.g. bcast=binomial)");
            }
            CollectiveOp op = CollectiveOp.fromCliName(p.substring(0, eq).trim());
            out.put(op, p.substring(eq + 1).trim());
        }
        return out;
    }

    /** The algorithm registered for {@code op} under {@code name}; the error lists the valid names. */
    public CollectiveAlgorithm lookup(CollectiveOp op, String name) {
        Map<String, CollectiveAlgorithm> names = byOp.getOrDefault(op, Collections.emptyMap());
        CollectiveAlgorithm a = names.get(name);
        int colon = name.indexOf(':');
        if (a == null && colon > 0 && names.get(name.substring(0, colon)) instanceof CollectiveAlgorithm.Parameterized f) {
            return f.withArgument(name.substring(colon + 1)); // e.g. bcast=file:FILE.json
        }
        if (a == null) {
            throw new IllegalArgumentException("unknown " + op.cliName() + " algorithm '" + name + "' (expected one of: "
                    + (names.isEmpty() ? "none registered" : String.join(", ", names.keySet())) + ")");
        }
        return a;
    }

    /** The algorithm chosen for {@code op}, cast to its operation's interface. */
    public <T extends CollectiveAlgorithm> T select(CollectiveOp op, Class<T> type) {
        CollectiveAlgorithm a = chosen.get(op);
        if (a == null) {
            throw new IllegalStateException("no " + op.cliName()
                    + " algorithm registered (is mpirunj-collectives on the classpath?)");
        }
        return type.cast(a);
    }

    /** The names registered for {@code op}, in registration order. */
    public List<String> names(CollectiveOp op) {
        return new ArrayList<>(byOp.getOrDefault(op, Collections.emptyMap()).keySet());
    }

    /** Every algorithm, grouped by operation; the chosen one of each first. */
    public List<CollectiveAlgorithm> all(CollectiveOp op) {
        List<CollectiveAlgorithm> out = new ArrayList<>(byOp.getOrDefault(op, Collections.emptyMap()).values());
        CollectiveAlgorithm c = chosen.get(op);
        if (c != null) {
            out.remove(c);
            out.add(0, c);
        }
        return out;
    }

    /** A table for {@code --list-algorithms}: op, name, whether chosen, description. */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        for (CollectiveOp op : CollectiveOp.values()) {
            for (CollectiveAlgorithm a : all(op)) {
                sb.append(String.format("%-11s %-22s %s %s%n", op.cliName(), a.name(),
                        a == chosen.get(op) ? "*" : " ", a.description()));
            }
        }
        return sb.toString();
    }
}
