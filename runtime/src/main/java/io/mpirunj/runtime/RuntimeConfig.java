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

    private final int eagerLimitBytes;
    private final String forcedCollectives;

    public RuntimeConfig(int eagerLimitBytes, String forcedCollectives) {
        if (eagerLimitBytes < 0) {
            throw new IllegalArgumentException(EAGER_LIMIT_PROP + "=" + eagerLimitBytes + " (expected: >= 0)");
        }
        this.eagerLimitBytes = eagerLimitBytes;
        this.forcedCollectives = forcedCollectives;
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
        return new RuntimeConfig(eagerLimit, coll);
    }

    public RuntimeConfig withEagerLimit(int bytes) {
        return new RuntimeConfig(bytes, forcedCollectives);
    }

    public RuntimeConfig withForcedCollectives(String spec) {
        return new RuntimeConfig(eagerLimitBytes, spec);
    }

    public int eagerLimitBytes() {
        return eagerLimitBytes;
    }

    /** Forced collective algorithms ({@code op=name,...}), or null. */
    public String forcedCollectives() {
        return forcedCollectives;
    }
}
