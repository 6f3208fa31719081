package io.mpirunj.collectives.mesh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.collectives.multicast.MulticastAlgorithms;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.schedule.Verifier;
import io.mpirunj.collectives.sim.Message;
import io.mpirunj.collectives.sim.Simulation;
import io.mpirunj.collectives.sim.SimulationJson;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.fabric.placement.Placement;
import io.mpirunj.fabric.topology.Mesh;
import io.mpirunj.fabric.topology.Topology;
import io.mpirunj.fabric.wormhole.Fabric;
import io.mpirunj.fabric.wormhole.NodeModel;
import io.mpirunj.fabric.wormhole.WormholeNetwork;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Paper 000, figures 7-9: the 6x6 example. */
@Timeout(30)
class OptMeshPaperExampleTest {

    static final String PLACEMENT = "3/2,1/5,2/1,3/4,4/3,4/4,5/1,5/4";
    static final Mesh MESH = (Mesh) Topology.parse("mesh:6x6");
    static final CostModel MODEL = ModelSpec.parse("hold=20,end=55");
    static final int[] NODE_OF = Placement.parse(PLACEMENT, MESH, 8);

    static String describe(Mesh mesh, int[] nodeOf, Message m) {
        return "(" + mesh.label(nodeOf[m.src()]).replace('/', ',') + ")->(" + mesh.label(nodeOf[m.dst()]).replace('/', ',')
                + ") " + fmt(m.start()) + "/" + fmt(m.end());
    }

    private static String fmt(double t) {
        return t == Math.rint(t) ? Long.toString((long) t) : Double.toString(t);
    }

    @Test
    void optMeshSendsWhatThePaperSaysAndTakes130() {
        Schedule s = OptMeshMulticast.build(8, 0, 0, MODEL, MESH, NODE_OF);
        assertEquals(List.of(), Verifier.verify(s));
        Simulation sim = Simulator.event(s, WormholeNetwork.model(MESH, MODEL, NodeModel.ONE_PORT), NODE_OF);
        List<String> messages = new ArrayList<>();
        for (Message m : sim.messages()) {
            messages.add(describe(MESH, NODE_OF, m));
        }
        assertEquals(List.of(
                "(3,2)->(4,4) 0/55",
                "(3,2)->(3,4) 20/75",
                "(3,2)->(1,5) 40/95",
                "(4,4)->(5,4) 55/110",
                "(3,2)->(2,1) 60/115",
                "(4,4)->(5,1) 75/130",
                "(3,4)->(4,3) 75/130"), messages);
        assertEquals(130, sim.completion());
        assertTrue(sim.contentions().isEmpty(), sim.contentions().toString());
        // The same schedule without a fabric: the same times.
        assertEquals(130, Simulator.event(s, new io.mpirunj.fabric.model.CostModelNetwork(MODEL), NODE_OF).completion());
    }

    @Test
    void addressListsAreTheReceiversIntervals() {
        ChainTree tree = OptMeshMulticast.tree(MESH, NODE_OF, 0,
                io.mpirunj.collectives.multicast.OptTreeMulticast.table(8, 0, MODEL));
        int r44 = rankAt("4/4");
        int r34 = rankAt("3/4");
        // (4,4) covers {(4,4),(5,1),(5,4)}: it sends to (5,4) then (5,1).
        assertEquals(List.of(rankAt("5/4"), rankAt("5/1")), tree.children(r44));
        assertEquals(List.of(rankAt("4/3")), tree.children(r34));
        assertEquals(List.of(r44, r34, rankAt("1/5"), rankAt("2/1")), tree.children(0));
    }

    @Test
    void uMeshTakes165InRoundsAndIsContentionFree() {
        Schedule s = UMeshMulticast.build(8, 0, 0, MODEL, MESH, NODE_OF);
        assertEquals(List.of(), Verifier.verify(s));
        assertEquals(165, Simulator.rounds(s, MODEL).completion());
        Simulation event = Simulator.event(s, WormholeNetwork.model(MESH, MODEL, NodeModel.ONE_PORT), NODE_OF);
        assertEquals(165, event.completion());
        assertTrue(event.contentions().isEmpty());
        assertEquals("(3,2)->(4,3) 0/55", describe(MESH, NODE_OF, event.messages().get(0)));
        assertEquals("(3,2)->(2,1) 20/75", describe(MESH, NODE_OF, event.messages().get(1)));
    }

    @Test
    void optTreeOnTheSamePlacementTakesT8Too() {
        Schedule s = MeshMulticasts.multicast("opt-tree", 8, 0, 0, MODEL, MESH, NODE_OF);
        Simulation sim = Simulator.event(s, Fabric.network(MESH, "hold=20,end=55", NodeModel.ONE_PORT), NODE_OF);
        assertEquals(130, sim.completion());
    }

    @Test
    void optTreeOnARandomPlacementIsReportedWithItsContention() {
        Mesh mesh16 = Mesh.mesh(16, 16);
        int[] nodeOf = Placement.parse("random:1", mesh16, 64);
        Schedule s = MeshMulticasts.multicast("opt-tree", 64, 0, 0, MODEL, mesh16, nodeOf);
        Simulation sim = Simulator.event(s, Fabric.network(mesh16, "hold=20,end=55", NodeModel.ONE_PORT), nodeOf);
        assertEquals(io.mpirunj.collectives.multicast.OptTreeMulticast.table(64, 0, MODEL).time(64), sim.completion());
        assertFalse(sim.contentions().isEmpty()); // the model's timing: contention is only reported
        String json = SimulationJson.write(sim);
        assertTrue(json.contains("\"model\":\"mesh:16x16 hold=20,end=55 one-port\""), json);
        assertTrue(json.contains("\"path\":["), json);
        assertTrue(json.contains("\"contention\":[{\"message\":"), json);
        assertTrue(sim.messages().stream().anyMatch(m -> m.waited() > 0));
    }

    @Test
    void jsonOfTheOptMeshExample() {
        Schedule s = MeshMulticasts.multicast("opt-mesh", 8, 0, 0, MODEL, MESH, NODE_OF);
        String json = SimulationJson.write(Simulator.event(s, WormholeNetwork.model(MESH, MODEL, NodeModel.ONE_PORT), NODE_OF));
        assertTrue(json.startsWith("{\"op\":\"multicast\",\"algorithm\":\"opt-mesh\",\"ranks\":8,\"root\":0,"), json);
        // (3,2) = node 20 -> (4,4) = node 28, routed first coordinate first: 20, 26, 27, 28.
        assertTrue(json.contains("{\"src\":0,\"dst\":5,\"start\":0,\"end\":55,\"step\":1,\"path\":[20,26,27,28],\"waited\":0}"),
                json);
        assertTrue(json.endsWith("\"contention\":[]}"), json);
    }

    @Test
    void entryPointRejectsUnknownNamesAndNonMeshes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MeshMulticasts.multicast("nope", 8, 0, 0, MODEL, MESH, NODE_OF));
        assertTrue(e.getMessage().contains("opt-mesh, u-mesh, star, star-match, akers-star, sequential"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> MeshMulticasts.multicast("opt-mesh", 3, 0, 0, MODEL, Topology.parse("star:4"), new int[] {0, 1, 2}));
        assertThrows(IllegalArgumentException.class,
                () -> MeshMulticasts.multicast("opt-mesh", 3, 0, 0, MODEL, MESH, new int[] {0, 1, 1}));
        assertEquals(MulticastAlgorithms.names().size() + 5, MeshMulticasts.allNames().size()); // + mesh 2, star 3
    }

    private static int rankAt(String label) {
        int node = MESH.node(label);
        for (int r = 0; r < NODE_OF.length; r++) {
            if (NODE_OF[r] == node) {
                return r;
            }
        }
        throw new AssertionError(label);
    }
}
