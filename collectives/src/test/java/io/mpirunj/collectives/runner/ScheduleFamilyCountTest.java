package io.mpirunj.collectives.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mpirunj.Buffer;
import io.mpirunj.collectives.ScheduleCollectives;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.schedule.Verifier;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveOp;
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
 * For every schedule-based bcast of {@link ScheduleCollectives} (the multicast builders, and opt-mesh and
 * u-mesh live on an 8x8 mesh; their multicast twins run the same schedules) and p = 2..64 ranks as threads: the schedule that ran is
 * verified, and the simulator's message count equals the messages the runner sent.
 */
class ScheduleFamilyCountTest {

    private static final CostModel MODEL = ModelSpec.parse(ModelProvider.DEFAULT_SPEC);
    private static final ScheduleCache CACHE = new ScheduleCache();

    /** Every schedule-based bcast; opt-mesh and u-mesh on an 8x8 mesh (rank i on node i). */
    static Stream<Arguments> bcasts() {
        return new ScheduleCollectives(ModelProvider.fixed(MODEL, "test"), CACHE).algorithms().stream()
                .filter(a -> a.op() == CollectiveOp.BCAST
                        && (a instanceof ScheduleCollectives.ScheduleTree || a.name().endsWith("-mesh")))
                .map(a -> Arguments.of(a.name(), a, a.name().endsWith("-mesh") ? "mesh:8x8" : null));
    }

    @ParameterizedTest(name = "bcast={0}")
    @MethodSource("bcasts")
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void simulatedMessagesAreTheMessagesSent(String name, CollectiveAlgorithm algorithm, String fabric) {
        CollectiveAlgorithm.Bcast bcast = (CollectiveAlgorithm.Bcast) algorithm;
        for (int p = 2; p <= 64; p++) {
            CACHE.clear();
            AtomicInteger sent = new AtomicInteger();
            int root = p / 2;
            LocalCluster.run(p, RuntimeConfig.defaults().withFabric(fabric, fabric == null ? null : "identity"), world -> {
                RecordingChannel ch = new RecordingChannel(CollChannel.of(world));
                bcast.bcast(ch, Buffer.of(new byte[1000]), root, true);
                sent.addAndGet(ch.sends().size());
            });
            List<Schedule> ran = CACHE.schedules();
            assertEquals(1, ran.size(), name + " p=" + p + " ran " + ran);
            Schedule s = ran.get(0);
            assertEquals(List.of(), Verifier.verify(s), name + " p=" + p);
            assertEquals(Simulator.event(s, MODEL).messages().size(), sent.get(), name + " p=" + p + ": " + s);
        }
    }
}
