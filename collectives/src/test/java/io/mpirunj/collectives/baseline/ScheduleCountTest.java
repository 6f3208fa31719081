package io.mpirunj.collectives.baseline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mpirunj.collectives.runner.ModelProvider;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.schedule.Verifier;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.testing.LocalCluster;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * For every baseline algorithm and p = 2..64 ranks (as threads): the schedule it ran is the one the
 * verifier accepts, and the number of messages the simulator predicts for it equals the number the
 * runner actually sent (counted on the channel).
 */
class ScheduleCountTest {

    private static final CostModel MODEL = ModelSpec.parse(ModelProvider.DEFAULT_SPEC);

    static Stream<Arguments> algorithms() {
        return BaselineAlgorithmsTest.baselineAlgorithms().stream()
                .map(a -> Arguments.of(a.op().cliName() + "=" + a.name(), a));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void simulatedMessagesAreTheMessagesSent(String name, CollectiveAlgorithm algorithm) {
        for (int p = 2; p <= 64; p++) {
            Scheduled.cache().clear();
            AtomicInteger sent = new AtomicInteger();
            LocalCluster.run(p, RuntimeConfig.defaults(),
                    world -> OneCall.run(algorithm, new CountingChannel(CollChannel.of(world), sent), 3));
            List<Schedule> ran = Scheduled.cache().schedules();
            assertEquals(1, ran.size(), name + " p=" + p + " ran " + ran);
            Schedule s = ran.get(0);
            assertEquals(List.of(), Verifier.verify(s), name + " p=" + p);
            assertEquals(Simulator.event(s, MODEL).messages().size(), sent.get(), name + " p=" + p + ": " + s);
        }
    }
}
