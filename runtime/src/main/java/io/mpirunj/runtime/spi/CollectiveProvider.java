package io.mpirunj.runtime.spi;

import java.util.List;

/**
 * A component contributing collective algorithms, found with {@link java.util.ServiceLoader}
 * (register in {@code META-INF/services/io.mpirunj.runtime.spi.CollectiveProvider}).
 */
public interface CollectiveProvider {
    List<CollectiveAlgorithm> algorithms();

    /**
     * Built-in size/rank-count thresholds over this provider's algorithms, consulted after the rules
     * file and {@code auto}, before the default. Default: none.
     */
    default List<CollRules.Rule> thresholds() {
        return List.of();
    }

    /**
     * Thresholds that hold only where the ranks are threads of one JVM ({@link CollectiveRegistry#forRankThreads}:
     * a message is a hand-off to a parked thread, not a socket), consulted there before {@link #thresholds()}.
     * Default: none.
     */
    default List<CollRules.Rule> threadThresholds() {
        return List.of();
    }

    /**
     * Thresholds that hold only where the ranks are processes talking over sockets
     * ({@link CollectiveRegistry#forRankProcesses}: a message is a system call and a wake-up on each side),
     * consulted there before {@link #thresholds()}. Default: none.
     */
    default List<CollRules.Rule> processThresholds() {
        return List.of();
    }
}
