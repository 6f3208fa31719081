package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.runtime.spi.CollectiveOp;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import io.mpirunj.testapps.EveryBcastAndMulticast;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every registered bcast and multicast algorithm (the schedule-based builders and the baselines)
 * with ranks as processes over TCP: roots, groups and sizes from 0 B to 4 MiB, every byte checked.
 */
class ProcessCollectivesTest {
    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {3, 5})
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void everyBcastAndMulticastAlgorithmDeliversAsProcesses(int np) {
        LauncherRun run = LauncherRun.of("-np", Integer.toString(np), EveryBcastAndMulticast.class.getName());
        run.assertEveryAlgorithmPassed(CollectiveOp.BCAST, CollectiveOp.MULTICAST);
        CollectiveRegistry registry = CollectiveRegistry.fromEnvironment();
        for (CollectiveOp op : new CollectiveOp[] {CollectiveOp.BCAST, CollectiveOp.MULTICAST}) {
            assertTrue(registry.names(op).contains("opt-tree"), "schedule algorithms are registered");
        }
    }
}
