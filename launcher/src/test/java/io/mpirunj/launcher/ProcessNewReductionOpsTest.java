package io.mpirunj.launcher;

import io.mpirunj.runtime.spi.CollectiveOp;
import io.mpirunj.testapps.EveryNewReductionOp;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every algorithm of reduceScatter, reduceScatterBlock, scan and exscan with ranks as processes over
 * TCP at np 4 and 5 (a power of two and not): longs under SUM and ints under MAX, blocks of 0 to 65,537
 * elements, every element of every rank checked ({@link EveryNewReductionOp}). The algorithms at other
 * rank counts are the threads tests' (CollectiveScenarios); here it is the wire, at a JVM per rank.
 */
class ProcessNewReductionOpsTest {
    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {4, 5})
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void everyAlgorithmOfTheNewOpsDeliversAsProcesses(int np) {
        LauncherRun.of("-np", Integer.toString(np), EveryNewReductionOp.class.getName()).assertEveryAlgorithmPassed(
                CollectiveOp.REDUCE_SCATTER, CollectiveOp.REDUCE_SCATTER_BLOCK, CollectiveOp.SCAN, CollectiveOp.EXSCAN);
    }
}
