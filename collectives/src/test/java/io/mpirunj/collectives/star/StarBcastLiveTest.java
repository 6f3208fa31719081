package io.mpirunj.collectives.star;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mpirunj.Buffer;
import io.mpirunj.collectives.baseline.CountingChannel;
import io.mpirunj.collectives.runner.ModelProvider;
import io.mpirunj.collectives.runner.ScheduleCache;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.schedule.Verifier;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.testing.LocalCluster;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The star broadcasts run live with ranks as threads: on --fabric star:4 with 24 ranks they run
 * their schedules (one build per root, seen in the cache); without a matching fabric they fall
 * back to the default bcast. Every rank's data is checked.
 */
class StarBcastLiveTest {

    private static final Duration CLUSTER_TIMEOUT = Duration.ofSeconds(60);
    private static final int[] SIZES = {0, 1, 1001, 100_003};

    @ParameterizedTest(name = "bcast={0}, 24 ranks on star:4")
    @ValueSource(strings = {"star", "star-match", "akers-star"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void deliversOnTheStarFabric(String name) {
        ScheduleCache cache = new ScheduleCache();
        CollectiveAlgorithm.Bcast algorithm = algorithm(name, cache);
        int[] roots = {0, 23, 5};
        RuntimeConfig config = RuntimeConfig.defaults().withForcedCollectives("bcast=" + name).withFabric("star:4", null);
        LocalCluster.run(24, config, CLUSTER_TIMEOUT, world -> {
            for (int root : roots) {
                for (int size : SIZES) {
                    bcastAndCheck(world, algorithm, root, size);
                }
                // And through Comm.bcast, as a program would call it (the forced algorithm).
                byte[] expected = pattern(77, root + 1000);
                byte[] buf = world.rank() == root ? expected.clone() : new byte[77];
                world.bcast(Buffer.of(buf), root);
                assertArrayEquals(expected, buf, "Comm.bcast rank " + world.rank());
            }
        });
        // One schedule per (root, size), built once and shared by the 24 thread ranks.
        assertEquals(roots.length * SIZES.length, cache.misses());
        assertEquals(roots.length * SIZES.length * 23L, cache.hits());
    }

    /**
     * On star:3 (6 ranks) and star:4 (24): the messages sent live are the ones the simulator counts for the schedule
     * that ran, and the verifier accepts it.
     */
    @ParameterizedTest(name = "bcast={0}: messages sent = simulated")
    @ValueSource(strings = {"star", "star-match", "akers-star"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void sendsTheMessagesTheSimulatorCounts(String name) {
        for (int n : new int[] {3, 4}) {
            int p = n == 3 ? 6 : 24;
            ScheduleCache cache = new ScheduleCache();
            CollectiveAlgorithm.Bcast algorithm = algorithm(name, cache);
            AtomicInteger sent = new AtomicInteger();
            RuntimeConfig config = RuntimeConfig.defaults().withFabric("star:" + n, null);
            LocalCluster.run(p, config, CLUSTER_TIMEOUT, world -> {
                byte[] buf = pattern(1001, world.rank() == 1 ? 5 : -1);
                algorithm.bcast(new CountingChannel(CollChannel.of(world), sent), Buffer.of(buf), 1, true);
                assertArrayEquals(pattern(1001, 5), buf, name + " rank " + world.rank());
            });
            List<Schedule> ran = cache.schedules();
            assertEquals(1, ran.size(), ran.toString());
            assertEquals(List.of(), Verifier.verify(ran.get(0)));
            assertEquals(Simulator.event(ran.get(0), ModelSpec.parse(ModelProvider.DEFAULT_SPEC)).messages().size(),
                    sent.get(), name + " on star:" + n);
        }
    }

    @ParameterizedTest(name = "{0} ranks without a star fabric: fallback")
    @ValueSource(ints = {5, 24})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void fallsBackWithoutAStarFabric(int p) {
        ScheduleCache cache = new ScheduleCache();
        CollectiveAlgorithm.Bcast algorithm = algorithm("star", cache);
        String fabric = p == 24 ? "mesh:5x5" : null;
        LocalCluster.run(p, RuntimeConfig.defaults().withFabric(fabric, null), CLUSTER_TIMEOUT, world -> {
            bcastAndCheck(world, algorithm, p - 1, 1001);
        });
        assertEquals(0, cache.misses());
    }

    private static CollectiveAlgorithm.Bcast algorithm(String name, ScheduleCache cache) {
        List<CollectiveAlgorithm> all = StarBroadcasts.algorithms(cache);
        return (CollectiveAlgorithm.Bcast) all.stream().filter(a -> a.name().equals(name)).findFirst().orElseThrow();
    }

    private static void bcastAndCheck(io.mpirunj.Comm world, CollectiveAlgorithm.Bcast algorithm, int root, int size) {
        byte[] expected = pattern(size, root * 31L + size);
        byte[] buf = world.rank() == root ? expected.clone() : pattern(size, -1);
        algorithm.bcast(CollChannel.of(world), Buffer.of(buf), root, true);
        assertArrayEquals(expected, buf, algorithm.name() + " root " + root + " size " + size + " rank " + world.rank());
    }

    private static byte[] pattern(int size, long seed) {
        byte[] b = new byte[size];
        long x = seed * 0x9E3779B97F4A7C15L + 1;
        for (int i = 0; i < size; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            b[i] = (byte) x;
        }
        return b;
    }
}
