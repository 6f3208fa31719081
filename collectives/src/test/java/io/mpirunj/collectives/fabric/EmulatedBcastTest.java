package io.mpirunj.collectives.fabric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.collectives.multicast.BinomialMulticast;
import io.mpirunj.collectives.multicast.OptTreeMulticast;
import io.mpirunj.collectives.runner.ModelProvider;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.fabric.placement.Placement;
import io.mpirunj.fabric.topology.Topology;
import io.mpirunj.fabric.wormhole.NodeModel;
import io.mpirunj.fabric.wormhole.WormholeNetwork;
import io.mpirunj.fabric.wormhole.WormholeParams;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.fabric.FabricEmulation;
import io.mpirunj.testing.LocalCluster;
import io.mpirunj.testing.NoLeakTracking;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 14's acceptance: on the emulated mesh:4x4 with the paper's parameters, the bcast time ratio
 * OPT-tree : binomial measured live at np 16 (ranks as threads) is within ±15 % of the ratio the
 * simulator predicts with the same engine. Time scale {@value #MICROS_PER_UNIT} µs per unit (a 1 KiB
 * message's t_end is about 51 ms of wall time).
 */
@ExtendWith(NoLeakTracking.class) // timing tests
class EmulatedBcastTest {
    private static final String MESH = "mesh:4x4";
    private static final int P = 16;
    private static final int BYTES = 1024;
    private static final double MICROS_PER_UNIT = 4.0;
    private static final int ROUNDS = 9;
    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void optTreeToBinomialRatioMatchesTheSimulator() {
        // the live schedule-based bcasts build with the default model (the paper's IBM SP, = the
        // nominal model of these flit parameters up to the unit)
        CostModel builderModel = ModelSpec.parse(ModelProvider.DEFAULT_SPEC);
        WormholeNetwork net = WormholeNetwork.flit(Topology.parse(MESH), WormholeParams.PAPER, NodeModel.ONE_PORT);
        int[] nodeOf = Placement.identity(P);
        double optPredicted = Simulator.event(OptTreeMulticast.build(P, 0, BYTES, builderModel), net, nodeOf)
                .completion();
        Schedule binomial = BinomialMulticast.build(P, 0, BYTES, builderModel);
        double binPredicted = Simulator.event(binomial, net, nodeOf).completion();
        double predictedRatio = optPredicted / binPredicted;
        // the comparison can fail: the simulator tells the two apart by more than the tolerance
        assertTrue(predictedRatio < 0.85, "predicted " + optPredicted + " / " + binPredicted);

        double opt = medianBcast("opt-tree");
        double bin = medianBcast("binomial");
        String report = "OPT-tree " + opt + " / binomial " + bin + " units = " + opt / bin + "; simulator "
                + optPredicted + " / " + binPredicted + " = " + predictedRatio;
        System.out.println(report);
        assertEquals(predictedRatio, opt / bin, 0.15 * predictedRatio, report);
        // and each is near the simulator's absolute time (loose: a loaded host only adds time)
        assertTrue(opt > 0.9 * optPredicted && bin > 0.9 * binPredicted, report);
    }

    /** The median over {@link #ROUNDS} of: root's bcast start to the last rank's return, in model units. */
    private static double medianBcast(String algorithm) {
        long[][] start = new long[ROUNDS][P];
        long[][] end = new long[ROUNDS][P];
        RuntimeConfig config = FabricEmulation.of(MESH, null, WormholeParams.PAPER.toString(), MICROS_PER_UNIT,
                null, P).install(RuntimeConfig.defaults().withForcedCollectives("bcast=" + algorithm));
        LocalCluster.run(P, config, Duration.ofSeconds(200), world -> {
            byte[] data = new byte[BYTES];
            for (int round = 0; round < ROUNDS; round++) {
                byte[] expected = new byte[BYTES];
                Arrays.fill(expected, (byte) (round + 1));
                if (world.rank() == 0) {
                    Arrays.fill(data, (byte) (round + 1));
                } else {
                    Arrays.fill(data, (byte) 0);
                }
                world.barrier();
                start[round][world.rank()] = world.wtimeNs();
                world.bcast(Buffer.of(data), 0);
                end[round][world.rank()] = world.wtimeNs();
                assertArrayEquals(expected, data);
            }
        });
        double[] spans = new double[ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
            long last = Arrays.stream(end[round]).max().orElseThrow();
            spans[round] = (last - start[round][0]) / (MICROS_PER_UNIT * 1000);
        }
        System.out.println(algorithm + " spans " + Arrays.toString(spans));
        Arrays.sort(spans);
        return spans[ROUNDS / 2];
    }
}
