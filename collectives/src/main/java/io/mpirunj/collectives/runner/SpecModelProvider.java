package io.mpirunj.collectives.runner;

import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;

/** A spec parsed once, on first use. */
final class SpecModelProvider implements ModelProvider {
    private final String spec;
    private final String source;
    private volatile CostModel model;

    SpecModelProvider(String spec, String source) {
        this.spec = spec;
        this.source = source;
    }

    @Override
    public CostModel model() {
        CostModel m = model;
        if (m == null) {
            try {
                m = ModelSpec.parse(spec);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("cost model for the schedule-based collectives, from " + source
                        + ": " + e.getMessage(), e);
            }
            model = m;
        }
        return m;
    }

    @Override
    public String describe() {
        return "model " + spec + " (" + source + ")";
    }
}
