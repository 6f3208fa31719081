package io.mpirunj.runtime;

import io.mpirunj.runtime.bootstrap.JobEnvironment;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import java.util.Map;

/**
 * Tunables of one rank. Each has a system property ({@code *_PROP}), an environment variable and a
 * default; the property wins over the environment.
 */
public final class RuntimeConfig {
    /** Messages above this many bytes use the rendezvous protocol. */
    public static final String EAGER_LIMIT_PROP = "mpirunj.eager.limit";
    public static final int EAGER_LIMIT_DEFAULT = 64 * 1024;

    /**
     * The job's fabric ({@code mesh:4x4}, {@code torus:16x16}, {@code star:4}, …; see
     * {@code io.mpirunj.fabric.topology.Topology#parse}): which network the ranks sit on, for
     * placement-aware collectives (OPT-mesh, SEM, star-graph broadcast). Set by {@code mpirun-j --fabric}.
     */
    public static final String FABRIC_PROP = "mpirunj.fabric";
    public static final String FABRIC_ENV = "MPIRUNJ_FABRIC";
    /**
     * Where world ranks sit on the fabric ({@code identity}, {@code random:SEED} or a list of
     * coordinates; see {@code io.mpirunj.fabric.placement.Placement#parse}). Set by {@code mpirun-j --placement}.
     */
    public static final String PLACEMENT_PROP = "mpirunj.placement";
    public static final String PLACEMENT_ENV = "MPIRUNJ_PLACEMENT";

    private final int eagerLimitBytes;
    private final String forcedCollectives;
    private final String fabricSpec;
    private final String placementSpec;

    public RuntimeConfig(int eagerLimitBytes, String forcedCollectives) {
        this(eagerLimitBytes, forcedCollectives, null, null);
    }

    private RuntimeConfig(int eagerLimitBytes, String forcedCollectives, String fabricSpec, String placementSpec) {
        if (eagerLimitBytes < 0) {
            throw new IllegalArgumentException(EAGER_LIMIT_PROP + "=" + eagerLimitBytes + " (expected: >= 0)");
        }
        this.eagerLimitBytes = eagerLimitBytes;
        this.forcedCollectives = forcedCollectives;
        this.fabricSpec = blankToNull(fabricSpec);
        this.placementSpec = blankToNull(placementSpec);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    /** Defaults, overridden by system properties and then by nothing else. */
    public static RuntimeConfig defaults() {
        return from(Map.of());
    }

    /** Reads the tunables from system properties, then from {@code env}, then defaults. */
    public static RuntimeConfig from(Map<String, String> env) {
        String eager = System.getProperty(EAGER_LIMIT_PROP, env.get(JobEnvironment.EAGER_LIMIT));
        int eagerLimit = EAGER_LIMIT_DEFAULT;
        if (eager != null) {
            try {
                eagerLimit = Integer.parseInt(eager.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(EAGER_LIMIT_PROP + "=" + eager + " (expected: a byte count)");
            }
        }
        String coll = System.getProperty(CollectiveRegistry.PROP_NAME, env.get(CollectiveRegistry.ENV_NAME));
        return new RuntimeConfig(eagerLimit, coll, System.getProperty(FABRIC_PROP, env.get(FABRIC_ENV)),
                System.getProperty(PLACEMENT_PROP, env.get(PLACEMENT_ENV)));
    }

    public RuntimeConfig withEagerLimit(int bytes) {
        return new RuntimeConfig(bytes, forcedCollectives, fabricSpec, placementSpec);
    }

    public RuntimeConfig withForcedCollectives(String spec) {
        return new RuntimeConfig(eagerLimitBytes, spec, fabricSpec, placementSpec);
    }

    /** The same tunables on the fabric {@code fabric} with ranks placed by {@code placement} (either may be null). */
    public RuntimeConfig withFabric(String fabric, String placement) {
        return new RuntimeConfig(eagerLimitBytes, forcedCollectives, fabric, placement);
    }

    public int eagerLimitBytes() {
        return eagerLimitBytes;
    }

    /** Forced collective algorithms ({@code op=name,...}), or null. */
    public String forcedCollectives() {
        return forcedCollectives;
    }

    /** The job's fabric spec ({@link #FABRIC_PROP}), or null when the job has none. */
    public String fabricSpec() {
        return fabricSpec;
    }

    /** The job's placement spec ({@link #PLACEMENT_PROP}), or null for identity (world rank r on node r). */
    public String placementSpec() {
        return placementSpec;
    }
}
