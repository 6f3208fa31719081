package io.mpirunj.collectives.runner;

import io.mpirunj.fabric.model.CostModel;
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
     * {@code cpus=C} when the ranks outnumber the host's C cores): {@code mpirun-j calibrate -np 8
     * --statistic min} on this project's 2-core machine (processes, loopback TCP, two event-loop threads
     * per rank), rounded. On 8 JVMs sharing 2 cores a message costs about a scheduler wake-up whatever its
     * size, so t_hold and t_end are large and nearly flat; benchmarks/README.md has the run it came from.
     */
    String TCP_SPEC = "hold=1600+0.0004m,end=1600+0.0015m";

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
