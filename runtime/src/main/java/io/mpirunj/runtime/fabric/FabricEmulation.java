package io.mpirunj.runtime.fabric;

import io.mpirunj.fabric.placement.Placement;
import io.mpirunj.fabric.topology.Topology;
import io.mpirunj.fabric.wormhole.Fabric;
import io.mpirunj.fabric.wormhole.WormholeNetwork;
import io.mpirunj.runtime.RuntimeConfig;
import java.util.Map;
import java.util.Objects;

/**
 * Live fabric emulation ({@code mpirun-j --fabric mesh:4x4 --fabric-params ss=..,sd=..,cd=..,rs=..,rd=..
 * --fabric-time-scale US_PER_UNIT [--fabric-fault ..]}): the ranks sit on the nodes of
 * {@link RuntimeConfig#fabricSpec()} as {@link RuntimeConfig#placementSpec()} says, and every message
 * they exchange is timed by the wormhole engine ({@link FabricArbiter}), one model unit lasting
 * {@code microsPerUnit} µs of wall time. The parameters are flit-level wormhole parameters or any cost
 * model spec ({@code hold=..,end=..}, {@code logp:..}: cost-model timing, routed) — see
 * {@link Fabric#network}. Without {@code --fabric-params}, {@code --fabric} only tells the
 * placement-aware collectives where the ranks sit, and nothing is delayed.
 *
 * <p>It plugs in as a transport decorator ({@link #install}); matching never knows. Immutable.
 *
 * @param network       the fabric's network, timing every message
 * @param nodeOf        world rank -> fabric node
 * @param microsPerUnit wall-clock µs per model unit (a number &gt; 0)
 * @param faults        the fabric's faults (none: empty)
 */
public record FabricEmulation(WormholeNetwork network, int[] nodeOf, double microsPerUnit, FabricFaults faults) {
    public static final String PARAMS_PROP = "mpirunj.fabric.params";
    public static final String PARAMS_ENV = "MPIRUNJ_FABRIC_PARAMS";
    public static final String TIME_SCALE_PROP = "mpirunj.fabric.timeScale";
    public static final String TIME_SCALE_ENV = "MPIRUNJ_FABRIC_TIME_SCALE";
    public static final String FAULT_PROP = "mpirunj.fabric.fault";
    public static final String FAULT_ENV = "MPIRUNJ_FABRIC_FAULT";
    /** host:port of the launcher's {@link ArbiterService} (ranks as processes). */
    public static final String ARBITER_PROP = "mpirunj.fabric.arbiter";
    public static final String ARBITER_ENV = "MPIRUNJ_FABRIC_ARBITER";
    /** Default time scale: one model unit is one microsecond. */
    public static final double DEFAULT_MICROS_PER_UNIT = 1.0;

    public FabricEmulation {
        if (!(microsPerUnit > 0) || Double.isInfinite(microsPerUnit)) {
            throw new IllegalArgumentException("fabric time scale " + microsPerUnit
                    + " (expected: microseconds per model unit, a number > 0)");
        }
        Objects.requireNonNull(network, "network");
        Objects.requireNonNull(faults, "faults");
        nodeOf = nodeOf.clone();
        for (int rank = 0; rank < nodeOf.length; rank++) {
            if (nodeOf[rank] < 0 || nodeOf[rank] >= network.topology().nodes()) {
                throw new IllegalArgumentException("rank " + rank + " placed on node " + nodeOf[rank] + " of a fabric of "
                        + network.topology().nodes() + " nodes");
            }
        }
    }

    /**
     * @param fabric        topology spec, e.g. {@code mesh:4x4}
     * @param placement     placement spec, or null for identity
     * @param params        wormhole parameters ({@code ss=..}) or a cost model spec
     * @param microsPerUnit wall-clock µs per model unit
     * @param faults        fault spec ({@link FabricFaults#parse}), or null
     * @param size          ranks of the job
     */
    public static FabricEmulation of(String fabric, String placement, String params, double microsPerUnit,
            String faults, int size) {
        if (fabric == null || fabric.isBlank()) {
            throw new IllegalArgumentException("fabric emulation needs a fabric (--fabric mesh:4x4, ...)");
        }
        Topology topology = Topology.parse(fabric.trim());
        int[] nodeOf = Placement.parse(placement == null ? "identity" : placement.trim(), topology, size);
        WormholeNetwork network = Fabric.network(topology, params.trim(), io.mpirunj.fabric.wormhole.NodeModel.ONE_PORT);
        return new FabricEmulation(network, nodeOf, microsPerUnit, FabricFaults.parse(faults, topology));
    }

    /**
     * The emulation {@code config} and {@code env} ask for ({@link #PARAMS_PROP}/{@link #PARAMS_ENV} and
     * the others; properties win), or null when they give no fabric parameters.
     */
    public static FabricEmulation fromEnvironment(RuntimeConfig config, Map<String, String> env, int size) {
        String params = setting(env, PARAMS_PROP, PARAMS_ENV);
        if (params == null) {
            return null;
        }
        String scale = setting(env, TIME_SCALE_PROP, TIME_SCALE_ENV);
        double micros = DEFAULT_MICROS_PER_UNIT;
        if (scale != null) {
            try {
                micros = Double.parseDouble(scale);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("fabric time scale '" + scale
                        + "' (expected: microseconds per model unit, a number > 0)");
            }
        }
        return of(config.fabricSpec(), config.placementSpec(), params, micros,
                setting(env, FAULT_PROP, FAULT_ENV), size);
    }

    /** {@code config} with the emulation {@code env} asks for installed, or {@code config} itself when none. */
    public static RuntimeConfig installFromEnvironment(RuntimeConfig config, Map<String, String> env, int size) {
        FabricEmulation e = fromEnvironment(config, env, size);
        return e == null ? config : e.install(config);
    }

    private static String setting(Map<String, String> env, String prop, String var) {
        String v = System.getProperty(prop, env.get(var));
        return v == null || v.isBlank() ? null : v.trim();
    }

    /**
     * {@code config} with every transport it makes sending through a new in-JVM arbiter of this
     * fabric, and on the arbiter's model clock ({@code Comm.wtime} reads model time x the time scale).
     * The result serves one job (its ranks as threads): the arbiter's model time starts now.
     */
    public RuntimeConfig install(RuntimeConfig config) {
        FabricArbiter arbiter = newArbiter(config);
        EmulatedFabric fabric = new EmulatedFabric(arbiter, nodeOf.length, arbiter.origin(), config.clock(), microsPerUnit);
        return config.withClock(fabric.clock()).withTransportDecorator(fabric::wrap);
    }

    /** A fresh arbiter of this fabric on {@code config}'s clock. */
    public FabricArbiter newArbiter(RuntimeConfig config) {
        return newArbiter(config.clock());
    }

    /** A fresh arbiter of this fabric on {@code clock}. */
    public FabricArbiter newArbiter(io.mpirunj.runtime.NanoClock clock) {
        return newArbiter(clock, ModelOrigin.inJvm(clock.nanoTime()));
    }

    FabricArbiter newArbiter(io.mpirunj.runtime.NanoClock clock, ModelOrigin origin) {
        return new FabricArbiter(network, nodeOf, microsPerUnit, faults, clock, origin);
    }

    /**
     * Rank {@code rank}'s side of a process job's emulated fabric: {@code config} with its transport sending
     * through the launcher's {@link ArbiterService} at {@code address} ({@link #ARBITER_ENV}), on the
     * service's model clock.
     */
    public RuntimeConfig installRemote(RuntimeConfig config, String address, int rank) {
        RemoteArbiter remote = RemoteArbiter.connect(address, rank);
        EmulatedFabric fabric = new EmulatedFabric(remote, nodeOf.length, remote.origin(),
                io.mpirunj.runtime.NanoClock.SYSTEM, microsPerUnit);
        remote.bind(fabric);
        return config.withClock(fabric.clock()).withTransportDecorator(fabric::wrap);
    }

    /** For a rank process: {@code config} with the emulation {@code env} asks for (through the launcher's service). */
    public static RuntimeConfig installForProcess(RuntimeConfig config, Map<String, String> env, int rank, int size) {
        FabricEmulation e = fromEnvironment(config, env, size);
        if (e == null) {
            return config;
        }
        String address = setting(env, ARBITER_PROP, ARBITER_ENV);
        if (address == null) {
            throw new IllegalArgumentException(PARAMS_ENV + " is set but " + ARBITER_ENV
                    + " is not (the launcher hosts the arbiter of an emulated fabric)");
        }
        return e.installRemote(config, address, rank);
    }

    /** World rank -> fabric node (a copy). */
    @Override
    public int[] nodeOf() {
        return nodeOf.clone();
    }

    @Override
    public String toString() {
        return network.describe() + " at " + io.mpirunj.fabric.model.Numbers.format(microsPerUnit) + " us/unit"
                + (faults.isEmpty() ? "" : " with faults");
    }
}
