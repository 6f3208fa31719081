package io.mpirunj.collectives.runner;

import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.runtime.RuntimeConfig;
import java.util.Objects;

/**
 * Where the schedule-based collectives get the cost model they build with. Today: a fixed spec from
 * the {@value #PROP_NAME} system property, else the {@value #ENV_NAME} environment variable, else
 * {@link #DEFAULT_SPEC}; later, calibration plugs in its measured model here.
 *
 * <p><b>Every rank of a job must see the same model</b>: the model shapes the schedule (OPT-tree's
 * tree, the segment count of the pipelined variants), and ranks running different schedules do not
 * match each other's messages. The launcher passes its environment to every rank, so setting
 * {@value #ENV_NAME} (or the property on every JVM) is enough.
 *
 * <p>Implementations are thread-safe.
 */
public interface ModelProvider {

    /** System property holding a model spec (see {@link io.mpirunj.fabric.model.ModelSpec}). */
    String PROP_NAME = "mpirunj.model";
    /** Environment variable holding a model spec, read when the property is unset. */
    String ENV_NAME = "MPIRUNJ_MODEL";
    /** The IBM SP model of paper 000 (microseconds, m in bytes). */
    String DEFAULT_SPEC = "hold=20+0.02m,end=55+0.07m";
    /**
     * Processes on plain TCP when no model is given ({@code mpirun-j} passes it to every rank, with
     * {@code cpus=C} when the ranks outnumber the host's C cores, which is how sharing the cores enters:
     * once, in the simulator). The per-message costs are those of two ranks each on its own core, warm:
     * t_end from {@code osu_latency} -np 2 (11.0 µs at 1 KiB, 500.7 µs at 1 MiB), t_hold's fixed part
     * from {@code osu_bw}'s 1 KiB rate (9.2 µs a message), and its per-byte part equal to t_end's: on
     * one host the wire is the two CPUs, so a large message keeps its sender busy as long as it travels
     * (a calibration at -np 8 put t_hold at 465 µs for 1 MiB). Quiet runs on this project's 2-core machine,
     * session 6 (benchmarks/README.md, "Yardstick np 2 and start-up"). The spec before it,
     * {@code hold=1600+0.0004m,end=1600+0.0015m}, came from a calibration of cold ranks (interpreted code,
     * 7 repetitions) under load 16: 100x too slow at 1 KiB and ranking unsegmented chains 1.5x behind
     * the trees at 1 MiB, where they measure the same.
     */
    String TCP_SPEC = "hold=9+0.000467m,end=10.5+0.000467m";
    /**
     * What {@link #TCP_SPEC} adds when the ranks outnumber the cores, besides {@code cpus=C}: the latency of
     * a rank woken onto a shared core to take a message it waited for ({@code wake}, µs; not CPU work, so
     * it costs a tree once per hop and a flat tree's root nothing). Fitted to measured bcasts by
     * {@code benchmarks/fit-tcp-wake.sh 8} on this project's 2-core machine (np 8 processes, session 10,
     * benchmarks/README.md): the wake whose simulated mean time in the call matches bench's averages best.
     */
    String TCP_SHARED_CORES = "wake=39.5";
    /**
     * Where the TCP transport's rendezvous starts, as {@link #tcpSpec} gives it: messages up to the eager limit
     * (64 KiB) are copied and sent, and over TCP those up to half the eager credit (2 MiB by default,
     * {@code mpirunj.eager.streamLimit}) are streamed from the sender's memory as eager frames (no RTS/CTS);
     * only larger ones wait for the receiver's CTS. A handshake per message, not a constant fitted to runs.
     */
    String TCP_RENDEZVOUS = "rndv=" + RuntimeConfig.EAGER_CREDIT_DEFAULT / 2;

    /**
     * The model of {@code ranks} processes on plain TCP on one host of {@code cores} cores (0: unknown, or
     * several hosts): {@link #TCP_SPEC}, plus {@code cpus=cores} and {@link #TCP_SHARED_CORES} when the ranks
     * outnumber the cores, and {@link #TCP_RENDEZVOUS}. Every rank of a job gets the same spec.
     */
    static String tcpSpec(int ranks, int cores) {
        return TCP_SPEC + (cores > 0 && ranks > cores ? ",cpus=" + cores + "," + TCP_SHARED_CORES : "") + ","
                + TCP_RENDEZVOUS;
    }

    /**
     * The model to build with now.
     *
     * @throws IllegalArgumentException when the configured spec does not parse
     */
    CostModel model();

    /** One line for algorithm descriptions: the model and where it came from. */
    String describe();

    /** Always {@code model}; {@code source} says where it came from (e.g. "calibration"). */
    static ModelProvider fixed(CostModel model, String source) {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(source, "source");
        return new ModelProvider() {
            @Override
            public CostModel model() {
                return model;
            }

            @Override
            public String describe() {
                return "model " + model + " (" + source + ")";
            }
        };
    }

    /**
     * The model named by {@value #PROP_NAME}, else {@value #ENV_NAME}, else {@link #DEFAULT_SPEC}.
     * The spec is read now and parsed on first use, so a bad spec fails the schedule-based
     * collectives (with the parser's message) rather than every collective of the job.
     */
    static ModelProvider fromEnvironment() {
        String spec = System.getProperty(PROP_NAME);
        String source = "-D" + PROP_NAME;
        if (spec == null || spec.isBlank()) {
            spec = System.getenv(ENV_NAME);
            source = "env " + ENV_NAME;
        }
        if (spec == null || spec.isBlank()) {
            spec = DEFAULT_SPEC;
            source = "default IBM SP";
        }
        return new SpecModelProvider(spec.trim(), source);
    }
}
