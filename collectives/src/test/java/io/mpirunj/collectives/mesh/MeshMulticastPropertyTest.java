package io.mpirunj.collectives.mesh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.collectives.multicast.OptTreeMulticast;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.schedule.Verifier;
import io.mpirunj.collectives.sim.Message;
import io.mpirunj.collectives.sim.Simulation;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.fabric.placement.Placement;
import io.mpirunj.fabric.topology.Mesh;
import io.mpirunj.fabric.wormhole.NodeModel;
import io.mpirunj.fabric.wormhole.WormholeNetwork;
import io.mpirunj.fabric.wormhole.WormholeParams;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Theorem 3.2 of paper 000, checked: on random placements over meshes up to 16x16 and groups up
 * to 256, OPT-mesh (and U-mesh) schedules meet no channel contention, flit-level with the
 * paper's parameters and in cost-model mode.
 */
@Timeout(120)
class MeshMulticastPropertyTest {

    private static final WormholeParams PAPER = WormholeParams.PAPER;
    private static final long[] SIZES = {0, 1, 100, 4096, 65536};

    private record Case(Mesh mesh, int k, int root, long bytes, long seed) {
    }

    private static Case randomCase(Random random, int trial) {
        int dims = random.nextInt(4) == 0 ? 3 : 2;
        Mesh mesh;
        if (dims == 3) {
            mesh = Mesh.mesh(2 + random.nextInt(5), 2 + random.nextInt(5), 2 + random.nextInt(5));
        } else if (trial % 5 == 0) {
            mesh = Mesh.mesh(16, 16);
        } else {
            mesh = Mesh.mesh(1 + random.nextInt(16), 2 + random.nextInt(15));
        }
        int k = trial % 10 == 0 ? mesh.nodes() : 1 + random.nextInt(mesh.nodes());
        return new Case(mesh, k, random.nextInt(k), SIZES[random.nextInt(SIZES.length)], random.nextLong());
    }

    @Test
    void optMeshAndUMeshAreContentionFreeAtFlitLevel() {
        Random random = new Random(2024);
        for (int trial = 0; trial < 150; trial++) {
            Case c = randomCase(random, trial);
            int[] nodeOf = Placement.random(c.mesh.nodes(), c.k, c.seed);
            CostModel builderModel = PAPER.nominalModel(1);
            WormholeNetwork net = WormholeNetwork.flit(c.mesh, PAPER, NodeModel.ONE_PORT);
            for (Schedule s : List.of(OptMeshMulticast.build(c.k, c.root, c.bytes, builderModel, c.mesh, nodeOf),
                    UMeshMulticast.build(c.k, c.root, c.bytes, builderModel, c.mesh, nodeOf))) {
                assertEquals(List.of(), Verifier.verify(s));
                Simulation sim = Simulator.event(s, net, nodeOf);
                assertTrue(sim.contentions().isEmpty(), () -> c + " " + s.algorithm() + ": " + sim.contentions().get(0));
                for (Message m : sim.messages()) {
                    // No waiting: every message takes exactly the closed-form t_end of its path.
                    int k = m.path().size() + 1;
                    assertEquals(PAPER.tEnd(k, c.bytes), m.end() - m.start(), () -> c + " " + m);
                    assertEquals(0, m.waited());
                }
            }
        }
    }

    @Test
    void optMeshIsContentionFreeInCostModelModeAndTakesTheOptimalTime() {
        Random random = new Random(77);
        CostModel[] models = {ModelSpec.parse("hold=20,end=55"), ModelSpec.parse("hold=20+0.02m,end=55+0.07m"),
                ModelSpec.parse("hold=10,end=40"), ModelSpec.parse("hold=40,end=40"), ModelSpec.parse("hold=3,end=100")};
        for (int trial = 0; trial < 200; trial++) {
            Case c = randomCase(random, trial);
            CostModel model = models[trial % models.length];
            int[] nodeOf = Placement.random(c.mesh.nodes(), c.k, c.seed);
            WormholeNetwork net = WormholeNetwork.model(c.mesh, model, NodeModel.ONE_PORT);
            Schedule opt = OptMeshMulticast.build(c.k, c.root, c.bytes, model, c.mesh, nodeOf);
            Simulation sim = Simulator.event(opt, net, nodeOf);
            assertTrue(sim.contentions().isEmpty(), () -> c + " " + model + ": " + sim.contentions().get(0));
            double optimal = OptTreeMulticast.table(c.k, c.bytes, model).time(c.k);
            // Exact for integral parameters; 0.02m-style decimals may differ in the last bit (summation order).
            assertEquals(optimal, sim.completion(), optimal * 1e-12, c + " " + model);
            Simulation u = Simulator.event(UMeshMulticast.build(c.k, c.root, c.bytes, model, c.mesh, nodeOf), net, nodeOf);
            assertTrue(u.contentions().isEmpty(), () -> c + " u-mesh: " + u.contentions().get(0));
            assertTrue(sim.completion() <= u.completion(), c + " " + model);
        }
    }

    @Test
    void optMeshStaysValidWhenHoldExceedsEnd() {
        // t_hold > t_end: the table may keep fewer than half; the chain split falls back (documented).
        CostModel model = ModelSpec.parse("hold=50,end=10");
        Random random = new Random(9);
        for (int trial = 0; trial < 100; trial++) {
            Case c = randomCase(random, trial);
            int[] nodeOf = Placement.random(c.mesh.nodes(), c.k, c.seed);
            Schedule s = OptMeshMulticast.build(c.k, c.root, c.bytes, model, c.mesh, nodeOf);
            assertEquals(List.of(), Verifier.verify(s));
            Simulator.event(s, WormholeNetwork.model(c.mesh, model, NodeModel.ONE_PORT), nodeOf);
        }
    }

    @Test
    void uMeshTakesCeilLog2kRounds() {
        Random random = new Random(5);
        CostModel model = ModelSpec.parse("hold=20,end=55");
        for (int trial = 0; trial < 100; trial++) {
            Case c = randomCase(random, trial);
            int[] nodeOf = Placement.random(c.mesh.nodes(), c.k, c.seed);
            Schedule s = UMeshMulticast.build(c.k, c.root, c.bytes, model, c.mesh, nodeOf);
            int rounds = 32 - Integer.numberOfLeadingZeros(c.k - 1);
            assertEquals(rounds * 55.0, Simulator.rounds(s, model).completion(), c.toString());
        }
    }

    /** Figures 11-14 in miniature: 16 random placements on 16x16, flit level, paper parameters. */
    @Test
    void figureShapeOptMeshBeatsOptTreeBeatsUMesh() {
        Mesh mesh = Mesh.mesh(16, 16);
        WormholeNetwork net = WormholeNetwork.flit(mesh, PAPER, NodeModel.ONE_PORT);
        for (int k : new int[] {32, 128}) {
            for (long bytes : new long[] {4096, 65536}) {
                double[] mean = new double[3];
                String[] names = {"opt-mesh", "opt-tree", "u-mesh"};
                for (int seed = 1; seed <= 16; seed++) {
                    int[] nodeOf = Placement.random(mesh.nodes(), k, seed);
                    for (int a = 0; a < 3; a++) {
                        Schedule s = MeshMulticasts.multicast(names[a], k, 0, bytes, PAPER.nominalModel(1), mesh, nodeOf);
                        mean[a] += Simulator.event(s, net, nodeOf).completion() / 16;
                    }
                }
                String where = "k=" + k + " bytes=" + bytes + " " + java.util.Arrays.toString(mean);
                assertTrue(mean[0] < mean[1] && mean[1] < mean[2], where);
            }
        }
    }
}
