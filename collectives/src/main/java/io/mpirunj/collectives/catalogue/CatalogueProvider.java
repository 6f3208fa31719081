package io.mpirunj.collectives.catalogue;

import io.mpirunj.collectives.runner.ModelProvider;
import io.mpirunj.collectives.runner.ScheduleCache;
import io.mpirunj.runtime.spi.CollRules;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveProvider;
import java.util.List;

/**
 * The collectives module's one {@link CollectiveProvider}: every live algorithm of the
 * {@link AlgorithmCatalogue}, with the model from the environment and a JVM-wide schedule cache
 * (ranks as threads share their schedules), and the built-in thresholds of {@link Thresholds}.
 */
public final class CatalogueProvider implements CollectiveProvider {
    private static final ScheduleCache SHARED_CACHE = new ScheduleCache();

    @Override
    public List<CollectiveAlgorithm> algorithms() {
        return AlgorithmCatalogue.liveAlgorithms(new AlgorithmCatalogue.Services(ModelProvider.fromEnvironment(),
                SHARED_CACHE));
    }

    @Override
    public List<CollRules.Rule> thresholds() {
        return Thresholds.RULES;
    }

    @Override
    public List<CollRules.Rule> threadThresholds() {
        return Thresholds.THREAD_RULES;
    }

    @Override
    public List<CollRules.Rule> processThresholds() {
        return Thresholds.PROCESS_RULES;
    }
}
