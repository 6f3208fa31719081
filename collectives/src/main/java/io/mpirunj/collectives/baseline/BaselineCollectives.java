package io.mpirunj.collectives.baseline;

import io.mpirunj.collectives.catalogue.AlgorithmCatalogue;
import io.mpirunj.collectives.runner.ModelProvider;
import io.mpirunj.collectives.runner.ScheduleCache;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveProvider;
import java.util.List;

/**
 * The baseline collective algorithms of the {@link AlgorithmCatalogue} (the classic ones from Open MPI's
 * {@code coll/base} and MPICH): a view for tests. They are the defaults (priority 10, 5 or 0) until
 * something better is selected, and the reference the other algorithms are checked against. They are
 * declared, and found by {@link java.util.ServiceLoader}, through the catalogue.
 */
public final class BaselineCollectives implements CollectiveProvider {
    @Override
    public List<CollectiveAlgorithm> algorithms() {
        return AlgorithmCatalogue.liveAlgorithms(new AlgorithmCatalogue.Services(ModelProvider.fromEnvironment(),
                new ScheduleCache())).stream()
                .filter(a -> a.getClass().getPackageName().equals(BaselineCollectives.class.getPackageName()))
                .toList();
    }
}
