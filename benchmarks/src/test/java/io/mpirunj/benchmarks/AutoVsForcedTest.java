package io.mpirunj.benchmarks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.mpirunj.collectives.runner.ModelProvider;
import io.mpirunj.fabric.model.ModelSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which of the benchmark's forced bcasts run one schedule, so its second verdict pools them. */
class AutoVsForcedTest {

    private static final List<String> LABELS = List.of("auto", "binomial-p2p", "linear-p2p", "sequential", "chain",
            "binomial", "binary-split", "opt-tree", "fibonacci", "chain-pipelined", "binomial-segmented",
            "binomial-p2p#2");

    @Test
    void onTheTcpModelOfEightRanksOnTwoCoresTheTreesAreOneBinomialSchedule() {
        int[] group = AutoVsForced.scheduleGroups(LABELS, 8, 1024, ModelSpec.parse(ModelProvider.TCP_SPEC + ",cpus=2"));
        // auto alone; binomial-p2p = binomial = binary-split = opt-tree = binomial-segmented = its copy; the flat
        // trees together; chain = chain-pipelined (one segment); fibonacci alone
        assertArrayEquals(new int[] {0, 1, 2, 2, 4, 1, 1, 1, 8, 4, 1, 1}, group);
    }

    @Test
    void onTheIbmSpModelOptTreeIsATreeOfItsOwn() {
        int[] group = AutoVsForced.scheduleGroups(LABELS, 8, 1024, ModelSpec.parse("hold=20+0.02m,end=55+0.07m"));
        org.junit.jupiter.api.Assertions.assertEquals(7, group[7]);
    }
}
