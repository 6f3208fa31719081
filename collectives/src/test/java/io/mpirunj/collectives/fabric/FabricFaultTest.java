package io.mpirunj.collectives.fabric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.collectives.multicast.TtccMulticast;
import io.mpirunj.collectives.runner.ModelProvider;
import io.mpirunj.collectives.schedule.Instruction;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.fabric.wormhole.WormholeParams;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.fabric.FabricEmulation;
import io.mpirunj.testing.LocalCluster;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Fault injection on the live emulated fabric ({@code --fabric-fault}), ranks as threads on
 * {@code complete:8} (every pair of ranks is one link): a dropped link ends a non-TTCC bcast with an
 * error naming the link, never a hang; TTCC (issue 12) completes with correct data when one of its T0
 * links is dropped or slowed 20x, and the job goes on.
 */
class FabricFaultTest {
    private static final int P = 8;
    private static final int BYTES = 1001;
    private static final double MICROS_PER_UNIT = 0.2;

    /** A T0 edge (parent, child) of the live TTCC schedule with neither end rank 0 (the finish barrier's hub). */
    private static int[] t0EdgeAwayFromRoot() {
        Schedule s = TtccMulticast.build(P, 0, BYTES, ModelSpec.parse(ModelProvider.DEFAULT_SPEC));
        for (int r = 1; r < P; r++) {
            for (Instruction in : s.program(r)) {
                if (in.isReceive() && in.peerCount() == 2 && in.peer(0) != 0) {
                    return new int[] {in.peer(0), r}; // RECV_FIRST_OF lists the T0 parent first
                }
            }
        }
        throw new AssertionError("no redundant T0 edge away from rank 0 in " + s.describe());
    }

    private static RuntimeConfig config(String coll, String fault) {
        return FabricEmulation.of("complete:" + P, null, WormholeParams.PAPER.toString(), MICROS_PER_UNIT, fault, P)
                .install(RuntimeConfig.defaults().withForcedCollectives(coll));
    }

    private static void bcastTwice(io.mpirunj.Comm world) {
        for (int round = 1; round <= 2; round++) {
            byte[] data = new byte[BYTES];
            byte[] expected = new byte[BYTES];
            for (int i = 0; i < BYTES; i++) {
                expected[i] = (byte) (i * 7 + round);
            }
            if (world.rank() == 0) {
                System.arraycopy(expected, 0, data, 0, BYTES);
            }
            world.bcast(Buffer.of(data), 0);
            assertArrayEquals(expected, data, "rank " + world.rank() + " round " + round);
        }
        // No barrier: a dissemination barrier's messages would cross the dropped link too. The job's
        // finish (a gather through rank 0) does not, so the job ends normally.
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aDroppedLinkEndsABinomialBcastWithAnErrorNamingTheLink() {
        String link = "4-6"; // binomial from 0: rank 6 receives from 4
        AssertionError e = assertThrows(AssertionError.class, () -> LocalCluster.run(P,
                config("bcast=binomial", "drop:" + link), Duration.ofSeconds(60), FabricFaultTest::bcastTwice));
        assertTrue(String.valueOf(e.getMessage()).contains("RankFailedException")
                && e.getMessage().contains("fabric link " + link + " dropped"), e.getMessage());
        assertTrue(!e.getMessage().contains("timed out"), e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"drop", "slow"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void ttccSurvivesAFaultyT0Link(String kind) {
        int[] edge = t0EdgeAwayFromRoot();
        String link = edge[0] + "-" + edge[1];
        String fault = kind.equals("drop") ? "drop:" + link : "slow:" + link + ":20";
        LocalCluster.run(P, config("bcast=ttcc", fault), Duration.ofSeconds(60), FabricFaultTest::bcastTwice);
    }

    /**
     * The runtime's own exchanges (a split's and Mpi.finish's gathers through rank 0) are not modelled traffic: a
     * link to rank 0 dropped failed a program that sent nothing across it (a new user's trial).
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aDroppedLinkLeavesTheRuntimesOwnExchangesAlone() {
        LocalCluster.run(P, config("bcast=binomial", "drop:0-1"), Duration.ofSeconds(60), world -> {
            io.mpirunj.Comm half = world.split(world.rank() % 2, world.rank());
            assertEquals(P / 2, half.size());
            half.close();
        });
    }

    @Test
    void theEdgeIsRedundant() {
        int[] edge = t0EdgeAwayFromRoot();
        assertEquals(2, edge.length);
        assertTrue(Arrays.stream(edge).allMatch(r -> r > 0 && r < P));
    }
}
