package io.mpirunj.runtime;

import io.mpirunj.runtime.bootstrap.JobEnvironment;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import io.mpirunj.runtime.transport.Transport;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Tunables of one rank. Each has a system property ({@code *_PROP}), an environment variable and a
 * default; the property wins over the environment.
 */
public final class RuntimeConfig {
    /** The transports a job may name ({@code mpirunj.transport}, {@code MPIRUNJ_TRANSPORT}). */
    public static final Set<String> TRANSPORTS = Set.of("auto", "tcp", "local");

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
    /** The transport between ranks: {@code auto} (TCP for processes, in-JVM for threads), {@code tcp} or {@code local}. */
    public static final String TRANSPORT_PROP = "mpirunj.transport";
    /**
     * How many ranks share this host's cores (default: the launcher's {@code OMPI_COMM_WORLD_LOCAL_SIZE};
     * with ranks as threads, at least the job's size). When they outnumber the cores, waiters block
     * at once instead of spinning.
     */
    public static final String LOCAL_RANKS_PROP = "mpirunj.local.ranks";

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

    /** A collective rules file ({@code mpirun-j --coll-rules FILE}; see {@link io.mpirunj.runtime.spi.CollRules}). */
    public static final String COLL_RULES_PROP = "mpirunj.coll.rules";
    public static final String COLL_RULES_ENV = "MPIRUNJ_COLL_RULES";
    /** {@code 1}: print which collective algorithms ran at exit ({@code mpirun-j --coll-report}). */
    public static final String COLL_REPORT_PROP = "mpirunj.coll.report";
    public static final String COLL_REPORT_ENV = "MPIRUNJ_COLL_REPORT";
    /**
     * {@code 1}: before each collective call the ranks compare what they called (operation, root, agreed size), so
     * calls that do not match fail at once on every rank, naming each rank's call ({@code mpirun-j
     * --check-collectives}): one small exchange per call, for debugging.
     */
    public static final String CHECK_COLLECTIVES_PROP = "mpirunj.coll.check";
    public static final String CHECK_COLLECTIVES_ENV = "MPIRUNJ_CHECK_COLLECTIVES";
    /**
     * How long {@code auto}'s live trials are ({@code mpirun-j --coll-tune N}; 0: off, auto runs the model's pick):
     * per operation and size class, the model's shortlist is run for real, a block of calls per candidate, and the
     * candidate with the least time in the call (the ranks' means, summed) runs from then on; four trials, with
     * N, 2N, 4N and 8N timed calls per block (see {@code io.mpirunj.runtime.comm.AutoTrial}).
     */
    public static final String COLL_TUNE_PROP = "mpirunj.coll.tune";
    public static final String COLL_TUNE_ENV = "MPIRUNJ_COLL_TUNE";
    public static final int COLL_TUNE_DEFAULT = 8;
    public static final int COLL_TUNE_MAX = 1000;
    /**
     * The job's cost model ({@code mpirun-j --model SPEC}, the specs of {@code io.mpirunj.fabric.model.ModelSpec}):
     * what model-built schedules plan with and what {@code --coll op=auto} predicts with.
     */
    public static final String MODEL_PROP = "mpirunj.model";
    public static final String MODEL_ENV = "MPIRUNJ_MODEL";

    /**
     * How collectives are chosen, reported and checked: forced spec, rules file, report flag, model spec, auto's
     * trial, whether calls are checked to match.
     */
    private record Coll(String forced, String rulesFile, boolean report, String modelSpec, int tuneRounds,
            boolean check) {
        Coll {
            collTune(COLL_TUNE_PROP, Integer.toString(tuneRounds)); // the range check the settings get
        }
    }

    /** What {@link #COLL_TUNE_PROP} takes, as messages say it. */
    public static final String COLL_TUNE_EXPECTED = "rounds from 0 (off) to " + COLL_TUNE_MAX;

    private final int eagerLimitBytes;
    private final Coll coll;
    private final Engine engine;
    private final String fabricSpec;
    private final String placementSpec;

    public RuntimeConfig(int eagerLimitBytes, String forcedCollectives) {
        this(eagerLimitBytes, new Coll(forcedCollectives, null, false, null, COLL_TUNE_DEFAULT, false), Engine.DEFAULT,
                null, null);
    }

    private RuntimeConfig(int eagerLimitBytes, Coll coll, Engine engine, String fabricSpec,
            String placementSpec) {
        if (eagerLimitBytes < 0) {
            throw new IllegalArgumentException(EAGER_LIMIT_PROP + "=" + eagerLimitBytes + " (expected: >= 0)");
        }
        this.eagerLimitBytes = eagerLimitBytes;
        this.coll = coll;
        this.engine = engine;
        this.fabricSpec = blankToNull(fabricSpec);
        this.placementSpec = blankToNull(placementSpec);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    /** The point-to-point engine's and transports' settings (issue 9), kept together. */
    private record Engine(int eagerCreditBytes, String transport, int localRanks, NanoClock clock,
            UnaryOperator<Transport> transportDecorator) {
        static final Engine DEFAULT = new Engine(EAGER_CREDIT_DEFAULT, "auto", 0, NanoClock.SYSTEM,
                UnaryOperator.identity());

        Engine {
            if (eagerCreditBytes < 0) {
                throw new IllegalArgumentException(EAGER_CREDIT_PROP + "=" + eagerCreditBytes + " (expected: >= 0)");
            }
            if (!TRANSPORTS.contains(transport)) {
                throw new IllegalArgumentException(TRANSPORT_PROP + "=" + transport + " (expected: auto, tcp or local)");
            }
            if (localRanks < 0) {
                throw new IllegalArgumentException(LOCAL_RANKS_PROP + "=" + localRanks + " (expected: >= 0)");
            }
            Objects.requireNonNull(clock, "clock");
            Objects.requireNonNull(transportDecorator, "transportDecorator");
        }
    }

    /** Defaults, overridden by system properties and then by nothing else. */
    public static RuntimeConfig defaults() {
        return from(Map.of());
    }

    /** Reads the tunables from system properties, then from {@code env}, then defaults. */
    public static RuntimeConfig from(Map<String, String> env) {
        int eagerLimit = byteCount(env, EAGER_LIMIT_PROP, JobEnvironment.EAGER_LIMIT, EAGER_LIMIT_DEFAULT);
        int eagerCredit = byteCount(env, EAGER_CREDIT_PROP, JobEnvironment.EAGER_CREDIT_BYTES, EAGER_CREDIT_DEFAULT);
        String transport = System.getProperty(TRANSPORT_PROP, env.getOrDefault(JobEnvironment.TRANSPORT, "auto")).trim();
        int localRanks = byteCount(env, LOCAL_RANKS_PROP, JobEnvironment.LOCAL_SIZE, 0);
        Coll coll = new Coll(System.getProperty(CollectiveRegistry.PROP_NAME, env.get(CollectiveRegistry.ENV_NAME)),
                blankToNull(System.getProperty(COLL_RULES_PROP, env.get(COLL_RULES_ENV))),
                "1".equals(System.getProperty(COLL_REPORT_PROP, env.get(COLL_REPORT_ENV))),
                blankToNull(System.getProperty(MODEL_PROP, env.get(MODEL_ENV))), collTune(env),
                "1".equals(System.getProperty(CHECK_COLLECTIVES_PROP, env.get(CHECK_COLLECTIVES_ENV))));
        return new RuntimeConfig(eagerLimit, coll, new Engine(eagerCredit, transport, localRanks, NanoClock.SYSTEM,
                UnaryOperator.identity()), System.getProperty(FABRIC_PROP, env.get(FABRIC_ENV)),
                System.getProperty(PLACEMENT_PROP, env.get(PLACEMENT_ENV)));
    }

    /** {@link #COLL_TUNE_PROP}, else {@link #COLL_TUNE_ENV}, else the default; anything else is one line naming it. */
    public static int collTune(Map<String, String> env) {
        String fromProp = System.getProperty(COLL_TUNE_PROP);
        return fromProp != null ? collTune(COLL_TUNE_PROP, fromProp) : collTune(COLL_TUNE_ENV, env.get(COLL_TUNE_ENV));
    }

    /** {@code value} of the setting {@code name} as rounds of auto's trials (null: the default), else one line. */
    public static int collTune(String name, String value) {
        return (int) whole(name, value, COLL_TUNE_DEFAULT, 0, COLL_TUNE_MAX, COLL_TUNE_EXPECTED);
    }

    /** A non-negative count from the property, else the variable (named as the one that was set), else {@code dflt}. */
    private static int byteCount(Map<String, String> env, String prop, String var, int dflt) {
        String fromProp = System.getProperty(prop);
        String name = fromProp != null || env.get(var) == null ? prop : var;
        String value = fromProp != null ? fromProp : env.get(var);
        return nonNegativeSetting(name, value, dflt);
    }

    /**
     * The system property {@code prop} as a whole number of at least {@code min}, or {@code dflt} when it is
     * not set; anything else (not a number, below {@code min}, beyond an {@code int}) is refused in one line
     * naming the property, so a mistyped tunable never runs silently with the default.
     */
    public static int intProperty(String prop, int dflt, int min) {
        return (int) boundedProperty(prop, dflt, min, Integer.MAX_VALUE);
    }

    /** As {@link #intProperty}, for a {@code long}. */
    public static long longProperty(String prop, long dflt, long min) {
        return boundedProperty(prop, dflt, min, Long.MAX_VALUE);
    }

    private static long boundedProperty(String prop, long dflt, long min, long max) {
        return whole(prop, System.getProperty(prop), dflt, min, max,
                "a whole number from " + min + (max == Long.MAX_VALUE ? "" : " to " + max));
    }

    /** {@code value} of {@code name} as a whole number from min to max, {@code dflt} when null, else one line. */
    private static long whole(String name, String value, long dflt, long min, long max, String expected) {
        if (value == null) {
            return dflt;
        }
        try {
            long n = Long.parseLong(value.trim());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below, with what was expected
        }
        throw new IllegalArgumentException(name + "=" + value + " (expected: " + expected + ")");
    }

    /** As {@link #intSetting}, for a count that may not be negative: a negative value is refused alike. */
    public static int nonNegativeSetting(String name, String value, int dflt) {
        return (int) whole(name, value, dflt, 0, Integer.MAX_VALUE, "a non-negative integer");
    }

    /**
     * A whole-number setting: {@code value} (of the property or variable {@code name}), or {@code dflt} when it
     * is not set; a value that is not a number is one line naming the setting and what it {@code expected}.
     */
    public static int intSetting(String name, String value, int dflt, String expected) {
        return (int) whole(name, value, dflt, Integer.MIN_VALUE, Integer.MAX_VALUE, expected);
    }

    public RuntimeConfig withEagerLimit(int bytes) {
        return new RuntimeConfig(bytes, coll, engine, fabricSpec, placementSpec);
    }

    public RuntimeConfig withForcedCollectives(String spec) {
        return new RuntimeConfig(eagerLimitBytes, new Coll(spec, coll.rulesFile(), coll.report(), coll.modelSpec(),
                coll.tuneRounds(), coll.check()), engine, fabricSpec, placementSpec);
    }

    /**
     * The same tunables with a collective rules file ({@code null}: none), the exit report on or off, and
     * the job's model spec ({@code null}: the default).
     */
    public RuntimeConfig withCollSelection(String rulesFile, boolean report, String modelSpec) {
        return new RuntimeConfig(eagerLimitBytes, new Coll(coll.forced(), blankToNull(rulesFile), report,
                blankToNull(modelSpec), coll.tuneRounds(), coll.check()), engine, fabricSpec, placementSpec);
    }

    /** The same tunables with {@code rounds} of auto's live trial ({@link #COLL_TUNE_PROP}; 0: off). */
    public RuntimeConfig withCollTune(int rounds) {
        return new RuntimeConfig(eagerLimitBytes, new Coll(coll.forced(), coll.rulesFile(), coll.report(),
                coll.modelSpec(), rounds, coll.check()), engine, fabricSpec, placementSpec);
    }

    /** The same tunables with collective calls checked to match or not ({@link #CHECK_COLLECTIVES_PROP}). */
    public RuntimeConfig withCollectivesChecked(boolean check) {
        return new RuntimeConfig(eagerLimitBytes, new Coll(coll.forced(), coll.rulesFile(), coll.report(),
                coll.modelSpec(), coll.tuneRounds(), check), engine, fabricSpec, placementSpec);
    }

    /** The same tunables on the fabric {@code fabric} with ranks placed by {@code placement} (either may be null). */
    public RuntimeConfig withFabric(String fabric, String placement) {
        return new RuntimeConfig(eagerLimitBytes, coll, engine, fabric, placement);
    }

    public RuntimeConfig withEagerCredit(int bytes) {
        Engine e = engine;
        return new RuntimeConfig(eagerLimitBytes, coll,
                new Engine(bytes, e.transport(), e.localRanks(), e.clock(), e.transportDecorator()),
                fabricSpec, placementSpec);
    }

    public RuntimeConfig withLocalRanks(int ranks) {
        Engine e = engine;
        return new RuntimeConfig(eagerLimitBytes, coll,
                new Engine(e.eagerCreditBytes(), e.transport(), ranks, e.clock(), e.transportDecorator()),
                fabricSpec, placementSpec);
    }

    public RuntimeConfig withClock(NanoClock clock) {
        Engine e = engine;
        return new RuntimeConfig(eagerLimitBytes, coll,
                new Engine(e.eagerCreditBytes(), e.transport(), e.localRanks(), clock, e.transportDecorator()),
                fabricSpec, placementSpec);
    }

    /** Wraps every transport made under this configuration, after {@code decorator}s added before. */
    public RuntimeConfig withTransportDecorator(UnaryOperator<Transport> decorator) {
        Engine e = engine;
        UnaryOperator<Transport> before = e.transportDecorator();
        return new RuntimeConfig(eagerLimitBytes, coll, new Engine(e.eagerCreditBytes(), e.transport(),
                e.localRanks(), e.clock(), t -> decorator.apply(before.apply(t))), fabricSpec, placementSpec);
    }

    /** Per-peer bound on eager bytes sent but not yet matched by the peer ({@link #EAGER_CREDIT_PROP}). */
    public int eagerCreditBytes() {
        return engine.eagerCreditBytes();
    }

    /** The configured transport name ({@link #TRANSPORT_PROP}): auto, tcp or local. */
    public String transport() {
        return engine.transport();
    }

    /** Ranks sharing this host's cores, or 0 if unknown ({@link #LOCAL_RANKS_PROP}). */
    public int localRanks() {
        return engine.localRanks();
    }

    /** The clock of waits, timeouts and {@code Comm.wtime}. */
    public NanoClock clock() {
        return engine.clock();
    }

    /** Applied to every transport a job makes (identity unless {@link #withTransportDecorator} was used). */
    public UnaryOperator<Transport> transportDecorator() {
        return engine.transportDecorator();
    }

    public int eagerLimitBytes() {
        return eagerLimitBytes;
    }

    /** Forced collective algorithms ({@code op=name,...}), or null. */
    public String forcedCollectives() {
        return coll.forced();
    }

    /** The collective rules file ({@link #COLL_RULES_PROP}), or null. */
    public String collRulesFile() {
        return coll.rulesFile();
    }

    /** True when the ranks report which collective algorithms ran ({@link #COLL_REPORT_PROP}). */
    public boolean collReport() {
        return coll.report();
    }

    /** True when the ranks check that their collective calls match, before each ({@link #CHECK_COLLECTIVES_PROP}). */
    public boolean checkCollectives() {
        return coll.check();
    }

    /** Rounds of auto's live trial ({@link #COLL_TUNE_PROP}); 0 when auto runs the model's pick untried. */
    public int collTuneRounds() {
        return coll.tuneRounds();
    }

    /** The job's cost-model spec ({@link #MODEL_PROP}), or null for the collectives' default. */
    public String modelSpec() {
        return coll.modelSpec();
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
