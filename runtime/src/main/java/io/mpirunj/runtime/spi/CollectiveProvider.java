package io.mpirunj.runtime.spi;

import java.util.List;

/**
 * A component contributing collective algorithms, found with {@link java.util.ServiceLoader}
 * (register in {@code META-INF/services/io.mpirunj.runtime.spi.CollectiveProvider}).
 */
public interface CollectiveProvider {
    List<CollectiveAlgorithm> algorithms();
}
