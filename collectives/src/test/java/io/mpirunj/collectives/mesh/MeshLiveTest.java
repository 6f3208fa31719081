package io.mpirunj.collectives.mesh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mpirunj.Buffer;
import io.mpirunj.collectives.runner.ModelProvider;
import io.mpirunj.collectives.runner.ScheduleCache;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.testing.LocalCluster;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * OPT-mesh and U-mesh run live, ranks as threads, on the job's {@code --fabric mesh:4x4} and
 * {@code --placement}: through {@code Comm.multicast}/{@code bcast} with the algorithm forced, and
 * straight through the SPI with a cache of our own, which shows the placed schedule ran; without a mesh
 * fabric they fall back to the default.
 */
class MeshLiveTest {

    private static final Duration CLUSTER_TIMEOUT = Duration.ofSeconds(60);
    /** 10 ranks scattered over a 4x4 mesh. */
    private static final String PLACEMENT = "random:7";

    private static byte[] pattern(int n, long seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (seed * 31 + i * 7);
        }
        return b;
    }

    @ParameterizedTest(name = "--coll multicast={0},bcast={0}")
    @ValueSource(strings = {"opt-mesh", "u-mesh"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void runsLiveThroughTheCommApi(String name) {
        RuntimeConfig config = RuntimeConfig.defaults().withForcedCollectives("multicast=" + name + ",bcast=" + name)
                .withFabric("mesh:4x4", PLACEMENT);
        LocalCluster.run(10, config, CLUSTER_TIMEOUT, world -> {
            int r = world.rank();
            int[][] groups = {{1, 2, 3, 4, 5, 6, 7, 8, 9}, {9, 4, 6}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}};
            int[] roots = {0, 7, 3};
            for (int g = 0; g < groups.length; g++) {
                int root = roots[g];
                int[] group = groups[g];
                if (r != root && IntStream.of(group).noneMatch(x -> x == r)) {
                    continue;
                }
                for (int size : new int[] {0, 1, 10_007}) {
                    byte[] expected = pattern(size, g * 100 + size);
                    byte[] buf = r == root ? expected.clone() : new byte[size];
                    world.multicast(Buffer.of(buf), root, group);
                    assertArrayEquals(expected, buf, name + " group " + g + " size " + size + " rank " + r);
                }
            }
            for (int root : new int[] {0, 9}) {
                byte[] expected = pattern(5000, root);
                byte[] buf = r == root ? expected.clone() : new byte[5000];
                world.bcast(Buffer.of(buf), root);
                assertArrayEquals(expected, buf, name + " bcast root " + root + " rank " + r);
            }
        });
    }

    @ParameterizedTest(name = "multicast={0}")
    @ValueSource(strings = {"opt-mesh", "u-mesh"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void theScheduleThatRunsIsThePlacedOne(String name) {
        ScheduleCache cache = new ScheduleCache();
        CollectiveAlgorithm.Multicast multicast = multicast(name, cache);
        LocalCluster.run(10, RuntimeConfig.defaults().withFabric("mesh:4x4", PLACEMENT), CLUSTER_TIMEOUT, world -> {
            byte[] expected = pattern(999, 5);
            byte[] buf = world.rank() == 2 ? expected.clone() : new byte[999];
            multicast.multicast(CollChannel.of(world), Buffer.of(buf), 2, IntStream.range(0, 10).toArray(), true);
            assertArrayEquals(expected, buf);
        });
        List<Schedule> built = cache.schedules();
        assertEquals(1, built.size());
        assertEquals(name, built.get(0).algorithm());
        assertEquals(1, cache.misses(), "one build shared by the 10 thread ranks");
    }

    /** As the star bcasts: without a mesh fabric the default multicast runs (one warning), nothing is built. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void withoutAMeshFabricTheDefaultMulticastRuns() {
        ScheduleCache cache = new ScheduleCache();
        CollectiveAlgorithm.Multicast multicast = multicast("opt-mesh", cache);
        for (String fabric : new String[] {null, "star:4"}) {
            LocalCluster.run(3, RuntimeConfig.defaults().withFabric(fabric, null), CLUSTER_TIMEOUT, world -> {
                byte[] expected = pattern(100, 9);
                byte[] buf = world.rank() == 0 ? expected.clone() : new byte[100];
                multicast.multicast(CollChannel.of(world), Buffer.of(buf), 0, new int[] {1, 2}, true);
                assertArrayEquals(expected, buf);
            });
        }
        assertEquals(0, cache.misses());
    }

    private static CollectiveAlgorithm.Multicast multicast(String name, ScheduleCache cache) {
        ModelProvider models = ModelProvider.fixed(ModelSpec.parse(ModelProvider.DEFAULT_SPEC), "test");
        return (CollectiveAlgorithm.Multicast) LiveMeshMulticasts.algorithms(models, cache).stream()
                .filter(a -> a.name().equals(name) && a instanceof CollectiveAlgorithm.Multicast).findFirst()
                .orElseThrow();
    }

}
