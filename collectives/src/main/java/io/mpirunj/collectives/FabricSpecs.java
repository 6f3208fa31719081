package io.mpirunj.collectives;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.mpirunj.fabric.placement.Placement;
import io.mpirunj.fabric.topology.Topology;
import io.mpirunj.runtime.RuntimeConfig;
import java.util.function.BiFunction;

/**
 * The job's {@code --fabric} and {@code --placement} specs, parsed once per JVM and spec and reused by the
 * fabric-bound algorithms (mesh, star, torus/SEM), which need them on every collective call. A spec that
 * does not parse is remembered too and fails every call with the same one-line message. Parsing is a
 * function of the spec strings and the rank count alone, so ranks that share a JVM (--threads) share the
 * results; a JVM sees a handful of specs, the bound only keeps a long-lived one from collecting them.
 */
public final class FabricSpecs {
    private static final int MAX_SPECS = 64;

    /** A parse's value, or the message of its IllegalArgumentException. */
    private record Parsed<T>(T value, String error) {
        T get() {
            if (error != null) {
                throw new IllegalArgumentException(error);
            }
            return value;
        }
    }

    private record PlacementKey(String placement, String fabric, int ranks) {
    }

    private static final Cache<String, Parsed<Topology>> TOPOLOGIES = Caffeine.newBuilder().maximumSize(MAX_SPECS)
            .build();
    private static final Cache<PlacementKey, Parsed<int[]>> PLACEMENTS = Caffeine.newBuilder()
            .maximumSize(MAX_SPECS).build();

    private FabricSpecs() {
    }

    /** {@link Topology#parse} of {@code fabric}, parsed once; throws its IllegalArgumentException each time. */
    public static Topology topology(String fabric) {
        return TOPOLOGIES.get(fabric, spec -> parse(() -> Topology.parse(spec))).get();
    }

    /**
     * {@link Placement#parse} of {@code placement} (null: identity) for {@code ranks} ranks on the topology of
     * {@code fabric}, parsed once: node of each rank. Shared between calls: read it, never write it.
     */
    public static int[] nodeOf(String placement, String fabric, int ranks) {
        String spec = placement == null ? "identity" : placement;
        return PLACEMENTS.get(new PlacementKey(spec, fabric, ranks),
                key -> parse(() -> Placement.parse(spec, topology(fabric), ranks))).get();
    }

    /** The job's fabric and each rank's node on it, or (topology and nodes null) why the job cannot run on it. */
    public record Placed(Topology topology, int[] nodeOf, String why) {
    }

    /**
     * Places {@code ranks} ranks on the job's {@code --fabric} by its {@code --placement}, for a fabric-bound
     * algorithm: {@code misfit} says why a topology (and its spec) does not suit the algorithm, or null. The
     * result says why not when the job has no fabric, a spec does not parse, or {@code misfit} objects.
     */
    public static Placed place(RuntimeConfig config, int ranks, BiFunction<Topology, String, String> misfit) {
        String fabric = config.fabricSpec();
        if (fabric == null) {
            return new Placed(null, null, "the job has no --fabric");
        }
        try {
            Topology topology = topology(fabric);
            String why = misfit.apply(topology, fabric);
            return why != null ? new Placed(null, null, why)
                    : new Placed(topology, nodeOf(config.placementSpec(), fabric, ranks), null);
        } catch (IllegalArgumentException e) {
            return new Placed(null, null, e.getMessage());
        }
    }

    private static <T> Parsed<T> parse(java.util.function.Supplier<T> parser) {
        try {
            return new Parsed<>(parser.get(), null);
        } catch (IllegalArgumentException e) {
            return new Parsed<>(null, e.getMessage());
        }
    }
}
