package io.mpirunj.collectives.runner;

import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The job's model ({@code mpirun-j --model SPEC}, {@code RuntimeConfig#modelSpec()}) parsed once per spec
 * and JVM: every collective call asks, so parsing must not happen per call.
 */
public final class JobModels {
    private static final Map<String, CostModel> PARSED = new ConcurrentHashMap<>();

    private JobModels() {
    }

    /**
     * The model of {@code spec}.
     *
     * @throws IllegalArgumentException one line naming the spec, when it does not parse
     */
    public static CostModel parse(String spec) {
        CostModel m = PARSED.get(spec);
        if (m == null) {
            try {
                m = ModelSpec.parse(spec);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--model " + spec + ": " + e.getMessage(), e);
            }
            PARSED.putIfAbsent(spec, m);
        }
        return m;
    }

    /** The job's model: {@code spec} if given, else the environment's ({@link ModelProvider#fromEnvironment()}). */
    public static CostModel of(String spec) {
        return spec == null ? ModelProvider.fromEnvironment().model() : parse(spec);
    }
}
