package io.mpirunj.collectives.torus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.collectives.baseline.CollectiveScenarios;
import io.mpirunj.collectives.baseline.CountingChannel;
import io.mpirunj.collectives.runner.ModelProvider;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.schedule.Verifier;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.testing.LocalCluster;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code Comm.alltoall} with {@code --coll alltoall=sem}: every element of every block checked. */
class SemLiveTest {

    /** Runs one alltoall of {@code block} longs per block and checks every received element. */
    static void alltoallAndCheck(Comm world, int block) {
        alltoallAndCheck(world, block, false);
    }

    /** As {@link #alltoallAndCheck(Comm, int)}, started with {@code ialltoall} and awaited when {@code nonBlocking}. */
    static void alltoallAndCheck(Comm world, int block, boolean nonBlocking) {
        int p = world.size();
        int r = world.rank();
        long[][] blocks = CollectiveScenarios.alltoallBlocks(p, r, block);
        long[] recv = new long[p * block];
        java.util.Arrays.fill(recv, -1);
        if (nonBlocking) {
            world.ialltoall(Buffer.of(blocks[0]), Buffer.of(recv)).await();
        } else {
            world.alltoall(Buffer.of(blocks[0]), Buffer.of(recv));
        }
        assertArrayEquals(blocks[1], recv, "rank " + r + " block " + block + (nonBlocking ? " (ialltoall)" : ""));
    }

    static RuntimeConfig sem(String fabric) {
        return RuntimeConfig.defaults().withForcedCollectives("alltoall=sem").withFabric(fabric, null);
    }

    @ParameterizedTest
    @CsvSource({"4,torus:2x2", "9,torus:3x3", "16,torus:4x4", "25,torus:5x5", "64,torus:8x8"})
    @Timeout(300)
    void semDeliversEveryElementAsThreads(int np, String fabric) {
        LocalCluster.run(np, sem(fabric), Duration.ofSeconds(240), world -> {
            for (int block : new int[] {1, 3, 257}) {
                alltoallAndCheck(world, block);
            }
        });
    }

    /**
     * Every square np from 4 to 64 on its torus: SEM sends live the messages the simulator counts for its schedule
     * (no fallback), and the verifier accepts that schedule.
     */
    @Test
    @Timeout(300)
    void semSendsTheMessagesTheSimulatorCountsAtEverySquareUpTo64() {
        CollectiveAlgorithm.Alltoall sem = (CollectiveAlgorithm.Alltoall) TorusCollectives.alltoall(SemAlltoall.NAME);
        int block = 2;
        for (int n = 2; n <= 8; n++) {
            int np = n * n;
            AtomicInteger sent = new AtomicInteger();
            LocalCluster.run(np, sem("torus:" + n + "x" + n), Duration.ofSeconds(120), world -> {
                CollChannel counting = new CountingChannel(CollChannel.of(world), sent);
                long[][] blocks = CollectiveScenarios.alltoallBlocks(np, world.rank(), block);
                long[] recv = new long[np * block];
                sem.alltoall(counting, Buffer.of(blocks[0]), Buffer.of(recv), true);
                assertArrayEquals(blocks[1], recv, "np " + np + " rank " + world.rank());
            });
            Schedule s = SemAlltoall.build(n, block * Long.BYTES);
            assertEquals(List.of(), Verifier.verify(s), s.toString());
            assertEquals(Simulator.event(s, ModelSpec.parse(ModelProvider.DEFAULT_SPEC)).messages().size(), sent.get(),
                    "np " + np);
        }
    }

    /** Ranks placed elsewhere than row-major: blocks still go to the right ranks, blocking or not. */
    @ParameterizedTest
    @CsvSource({"identity,false", "identity,true", "random:7,false", "random:7,true"})
    @Timeout(120)
    void semWithAShuffledPlacementDeliversEveryElement(String placement, boolean nonBlocking) {
        RuntimeConfig config = RuntimeConfig.defaults().withForcedCollectives("alltoall=sem")
                .withFabric("torus:4x4", placement);
        LocalCluster.run(16, config, Duration.ofSeconds(90), world -> {
            for (int block : new int[] {1, 5}) {
                alltoallAndCheck(world, block, nonBlocking);
            }
        });
    }

    /** Other sizes, or no torus, fall back to the default all-to-all: still correct. */
    @ParameterizedTest
    @CsvSource({"12,torus:4x4", "16,", "16,mesh:4x4"})
    @Timeout(120)
    void otherSizesFallBackToTheDefault(int np, String fabric) {
        LocalCluster.run(np, sem(fabric), Duration.ofSeconds(100), world -> {
            alltoallAndCheck(world, 1);
            alltoallAndCheck(world, 5);
        });
    }

    @Test
    void theFallbackSaysWhy() {
        TorusCollectives.TorusAlltoall sem = (TorusCollectives.TorusAlltoall) new TorusCollectives().algorithms().get(0);
        assertNull(sem.rankOfNode(RuntimeConfig.defaults().withFabric("torus:4x4", null), 12));
        assertNull(sem.rankOfNode(RuntimeConfig.defaults(), 16));
        assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
                sem.rankOfNode(RuntimeConfig.defaults().withFabric("torus:4x4", "identity"), 16));
        // rank r on the r-th listed node: node 0/1 (id 1) holds rank 0, node 0/0 (id 0) rank 1, ...
        int[] swapped = sem.rankOfNode(RuntimeConfig.defaults().withFabric("torus:2x2", "0/1,0/0,1/0,1/1"), 4);
        assertArrayEquals(new int[] {1, 0, 2, 3}, swapped);
    }
}
