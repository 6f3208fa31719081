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
     * Eager flow control: at most this many bytes of eager messages a peer has not yet matched may be
     * in flight to it (each message also counts {@link io.mpirunj.runtime.p2p.P2pEngine#EAGER_OVERHEAD_BYTES});
     * beyond it a send switches to the rendezvous protocol. 0 sends everything by rendezvous.
     */
    public static final String EAGER_CREDIT_PROP = "mpirunj.eager.credit";
    public static final int EAGER_CREDIT_DEFAULT = 4 * 1024 * 1024;

    private final int eagerLimitBytes;
    private final String forcedCollectives;
    private final int eagerCreditBytes;

    public RuntimeConfig(int eagerLimitBytes, String forcedCollectives) {
        this(eagerLimitBytes, forcedCollectives, EAGER_CREDIT_DEFAULT);
    }

    private RuntimeConfig(int eagerLimitBytes, String forcedCollectives, int eagerCreditBytes) {
        if (eagerLimitBytes < 0) {
            throw new IllegalArgumentException(EAGER_LIMIT_PROP + "=" + eagerLimitBytes + " (expected: >= 0)");
        }
        if (eagerCreditBytes < 0) {
            throw new IllegalArgumentException(EAGER_CREDIT_PROP + "=" + eagerCreditBytes + " (expected: >= 0)");
        }
        this.eagerLimitBytes = eagerLimitBytes;
        this.forcedCollectives = forcedCollectives;
        this.eagerCreditBytes = eagerCreditBytes;
    }

    /** Defaults, overridden by system properties and then by nothing else. */
    public static RuntimeConfig defaults() {
        return from(Map.of());
    }

    /** Reads the tunables from system properties, then from {@code env}, then defaults. */
    public static RuntimeConfig from(Map<String, String> env) {
        int eagerLimit = byteCount(env, EAGER_LIMIT_PROP, JobEnvironment.EAGER_LIMIT, EAGER_LIMIT_DEFAULT);
        int eagerCredit = byteCount(env, EAGER_CREDIT_PROP, JobEnvironment.EAGER_CREDIT_BYTES, EAGER_CREDIT_DEFAULT);
        String coll = System.getProperty(CollectiveRegistry.PROP_NAME, env.get(CollectiveRegistry.ENV_NAME));
        return new RuntimeConfig(eagerLimit, coll, eagerCredit);
    }

    private static int byteCount(Map<String, String> env, String prop, String var, int dflt) {
        String v = System.getProperty(prop, env.get(var));
        if (v == null) {
            return dflt;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(prop + "=" + v + " (expected: a byte count)");
        }
    }

    public RuntimeConfig withEagerLimit(int bytes) {
        return new RuntimeConfig(bytes, forcedCollectives, eagerCreditBytes);
    }

    public RuntimeConfig withForcedCollectives(String spec) {
        return new RuntimeConfig(eagerLimitBytes, spec, eagerCreditBytes);
    }

    public RuntimeConfig withEagerCredit(int bytes) {
        return new RuntimeConfig(eagerLimitBytes, forcedCollectives, bytes);
    }

    /** Per-peer bound on eager bytes sent but not yet matched by the peer ({@link #EAGER_CREDIT_PROP}). */
    public int eagerCreditBytes() {
        return eagerCreditBytes;
    }

    public int eagerLimitBytes() {
        return eagerLimitBytes;
    }

    /** Forced collective algorithms ({@code op=name,...}), or null. */
    public String forcedCollectives() {
        return forcedCollectives;
    }
}
