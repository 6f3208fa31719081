package io.mpirunj.launcher;

import io.mpirunj.collectives.catalogue.AlgorithmCatalogue;
import io.mpirunj.runtime.spi.AlgorithmTrait;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import java.util.Set;

/** {@code --list-algorithms}: each registered algorithm's traits as the catalogue records them. */
final class CatalogueListing {
    private CatalogueListing() {
    }

    static Set<AlgorithmTrait> traits(CollectiveAlgorithm a) {
        AlgorithmCatalogue.Entry e = AlgorithmCatalogue.find(a.op(), a.name());
        return e != null ? e.traits() : a.traits();
    }
}
