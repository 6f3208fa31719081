package io.mpirunj.fabric.wormhole;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.fabric.model.Contention;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.fabric.topology.Mesh;
import io.mpirunj.fabric.topology.StarGraph;
import io.mpirunj.fabric.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class WormholeEngineTest {

    private static final Mesh MESH16 = Mesh.mesh(16, 16);

    /** Runs one message alone and returns its trace. */
    private static WormTrace alone(WormholeNetwork net, int src, int dst, long bytes, double start) {
        WormholeNetwork.FabricRun run = net.open();
        run.inject(0, src, dst, bytes, start);
        double t = run.nextDelivery();
        assertEquals(0, run.takeDelivery());
        assertEquals(Double.POSITIVE_INFINITY, run.nextDelivery());
        WormTrace trace = run.trace(0);
        assertEquals(trace.delivery(), t);
        assertTrue(run.contentions().isEmpty());
        return trace;
    }

    @Test
    void contentionFreeSingleMessagesMatchTheClosedFormExactly() {
        Random random = new Random(11);
        WormholeParams[] params = {WormholeParams.PAPER, WormholeParams.parse("ss=7,sd=3,cd=1,rs=5,rd=2"),
                WormholeParams.parse("ss=0.5,sd=0.25,cd=0.75,rs=1.5,rd=0.125,flit=8"),
                WormholeParams.parse("ss=10,sd=1,cd=4,rs=0,rd=0")};
        for (WormholeParams p : params) {
            WormholeNetwork net = WormholeNetwork.flit(MESH16, p, NodeModel.ONE_PORT);
            for (int trial = 0; trial < 300; trial++) {
                int src = random.nextInt(256);
                int dst = random.nextInt(256);
                long bytes = trial % 7 == 0 ? 0 : random.nextInt(70_000);
                double start = random.nextInt(1000) * 0.5;
                WormTrace tr = alone(net, src, dst, bytes, start);
                int k = tr.k();
                long m = p.flits(bytes);
                assertEquals(MESH16.route(src, dst).length + 1, k, "k = hops + 2");
                double tSend = p.ss() + m * p.sd();
                assertEquals(start + p.ss() + p.rs() + (k - 1) * p.cd() + m * (p.sd() + p.cd() + p.rd()),
                        tr.delivery(), 1e-9 * Math.max(1, tr.delivery()), p + " k=" + k + " m=" + m);
                assertEquals(start + tSend + p.tNet(k, bytes), tr.tail(), 1e-9 * tr.tail());
                assertEquals(start + p.tEnd(k, bytes), tr.delivery(), 1e-9 * tr.delivery());
                for (int i = 0; i < k; i++) {
                    // channel i (0-based) held during [T0 + i·cd, T0 + (i + m)·cd)
                    assertEquals(start + tSend + i * p.cd(), tr.acquired()[i], 1e-9 * tr.delivery());
                    assertEquals(start + tSend + (i + m) * p.cd(), tr.released()[i], 1e-9 * tr.delivery());
                }
                assertEquals(0, tr.waited());
            }
        }
    }

    @Test
    void paperParametersAreTheIbmSpModelPlusDistance() {
        WormholeParams p = WormholeParams.PAPER;
        WormholeNetwork net = WormholeNetwork.flit(MESH16, p, NodeModel.ONE_PORT);
        // 4 KB between neighbours: k = 3 channels (injection, one link, ejection).
        WormTrace tr = alone(net, MESH16.node(3, 3), MESH16.node(4, 3), 4096, 0);
        assertEquals(3, tr.k());
        assertEquals(2000 + 3500 + 2 * 2 + 4096 * 7, tr.delivery());
        assertEquals(2000 + 2 * 4096, net.sendGap(0, 1, 4096));
        assertEquals("hold=2000+2m,end=5500+7m", p.nominalModel(1).toString());
    }

    /** Two worms on a line, B ahead of A on shared links: A's header waits, the whole worm stands still. */
    @Test
    void blockedHeaderWaitsAndTheWormStandsStill() {
        Mesh line = Mesh.mesh(8);
        WormholeParams p = WormholeParams.parse("ss=10,sd=1,cd=1,rs=5,rd=1");
        WormholeNetwork.FabricRun run = WormholeNetwork.flit(line, p, NodeModel.ONE_PORT).open();
        run.inject(0, 0, 4, 4, 0); // A: inj0, 0->1, 1->2, 2->3, 3->4, ej4
        run.inject(1, 1, 5, 4, 0); // B: inj1, 1->2, 2->3, 3->4, 4->5, ej5
        assertEquals(32, run.nextDelivery()); // B, unhindered: 0 + t_end(6 channels, 4 flits) = 32
        assertEquals(1, run.takeDelivery());
        assertEquals(35, run.nextDelivery()); // A, 3 later
        assertEquals(0, run.takeDelivery());

        WormTrace a = run.trace(0);
        WormTrace b = run.trace(1);
        assertArrayEquals(new double[] {14, 15, 16, 17, 18, 19}, b.acquired());
        assertArrayEquals(new double[] {18, 19, 20, 21, 22, 23}, b.released());
        // A asks for 1->2 at 16, B holds it until 19 (its tail leaves at a_{2+4} = 19).
        assertArrayEquals(new double[] {14, 15, 19, 20, 21, 22}, a.acquired());
        // While A waits, its tail is frozen: inj0 is released only when A's header enters its 5th channel.
        assertArrayEquals(new double[] {21, 22, 23, 24, 25, 26}, a.released());
        assertEquals(26, a.tail());
        assertEquals(3, a.waited());
        assertEquals(List.of(new Contention(0, 1, line.channel(1, 2), "1->2", 16, 19)), run.contentions());
        assertArrayEquals(new int[] {0, 1, 2, 3, 4}, run.path(0));
    }

    @Test
    void waitingHeadersAreServedFirstComeFirstServed() {
        Mesh line = Mesh.mesh(8);
        WormholeParams p = WormholeParams.parse("ss=0,sd=0,cd=1,rs=0,rd=0");
        WormholeNetwork.FabricRun run = WormholeNetwork.flit(line, p, NodeModel.ONE_PORT).open();
        // All need 3->4. C (from 3) gets there first, then A (from 2) at 2, then B (from 1) at 3 in queue.
        run.inject(0, 2, 6, 10, 0);
        run.inject(1, 1, 6, 10, 0);
        run.inject(2, 3, 6, 10, 0);
        List<Integer> order = new ArrayList<>();
        while (run.nextDelivery() < Double.POSITIVE_INFINITY) {
            order.add(run.takeDelivery());
        }
        assertEquals(List.of(2, 0, 1), order);
        List<Contention> c = run.contentions();
        assertEquals(0, c.get(0).message());
        assertEquals(2, c.get(0).blocker());
        assertEquals("3->4", c.get(0).channel());
        assertTrue(run.trace(1).waited() > run.trace(0).waited());
    }

    @Test
    void occupancyNeverOverlapsOnAChannelInFlitMode() {
        Random random = new Random(3);
        WormholeNetwork net = WormholeNetwork.flit(Mesh.mesh(6, 6), WormholeParams.parse("ss=5,sd=1,cd=1,rs=3,rd=1"),
                NodeModel.ONE_PORT);
        WormholeNetwork.FabricRun run = net.open();
        double t = 0;
        for (int m = 0; m < 200; m++) {
            t += random.nextInt(4);
            run.inject(m, random.nextInt(36), random.nextInt(36), random.nextInt(40), t);
        }
        int delivered = 0;
        while (run.nextDelivery() < Double.POSITIVE_INFINITY) {
            run.takeDelivery();
            delivered++;
        }
        assertEquals(200, delivered);
        assertFalse(run.contentions().isEmpty());
        List<WormholeNetwork.Occupancy> occ = new ArrayList<>(run.occupancy());
        occ.sort((x, y) -> x.channel() != y.channel() ? Integer.compare(x.channel(), y.channel())
                : Double.compare(x.from(), y.from()));
        for (int i = 1; i < occ.size(); i++) {
            if (occ.get(i).channel() == occ.get(i - 1).channel()) {
                assertTrue(occ.get(i - 1).until() <= occ.get(i).from(), occ.get(i - 1) + " / " + occ.get(i));
            }
        }
        for (int m = 0; m < 200; m++) {
            WormTrace tr = run.trace(m);
            double free = tr.start() + net.params().tEnd(tr.k(), tr.bytes());
            assertTrue(tr.delivery() >= free - 1e-9);
            if (tr.waited() == 0) {
                assertTrue(tr.tail() == tr.start() + net.params().tSend(tr.bytes()) + net.params().tNet(tr.k(), tr.bytes()));
            }
        }
    }

    @Test
    void horizonKeepsLateInjectionsInOrder() {
        // Injecting B only after asking with a horizon must give the same as injecting everything first.
        Mesh line = Mesh.mesh(8);
        WormholeParams p = WormholeParams.parse("ss=10,sd=1,cd=1,rs=5,rd=1");
        WormholeNetwork.FabricRun lazy = WormholeNetwork.flit(line, p, NodeModel.ONE_PORT).open();
        lazy.inject(0, 0, 4, 4, 0);
        assertTrue(lazy.nextDelivery(3) >= 3);
        lazy.inject(1, 1, 5, 4, 3);
        WormholeNetwork.FabricRun eager = WormholeNetwork.flit(line, p, NodeModel.ONE_PORT).open();
        eager.inject(0, 0, 4, 4, 0);
        eager.inject(1, 1, 5, 4, 3);
        for (WormholeNetwork.FabricRun run : List.of(lazy, eager)) {
            run.nextDelivery();
            run.takeDelivery();
            run.nextDelivery();
            run.takeDelivery();
        }
        assertEquals(eager.trace(0).delivery(), lazy.trace(0).delivery());
        assertEquals(eager.trace(1).delivery(), lazy.trace(1).delivery());
        assertEquals(eager.contentions(), lazy.contentions());
        assertFalse(eager.contentions().isEmpty());
    }

    @Test
    void allPortNodesInjectOnSeparateChannels() {
        Mesh mesh = Mesh.mesh(4, 4);
        WormholeParams p = WormholeParams.parse("ss=0,sd=0,cd=1,rs=0,rd=0");
        int src = mesh.node(1, 1);
        for (NodeModel nm : NodeModel.values()) {
            WormholeNetwork net = WormholeNetwork.flit(mesh, p, nm);
            WormholeNetwork.FabricRun run = net.open();
            run.inject(0, src, mesh.node(2, 1), 8, 0);
            run.inject(1, src, mesh.node(1, 2), 8, 0);
            run.nextDelivery();
            assertEquals(nm == NodeModel.ONE_PORT, !run.contentions().isEmpty(), nm.toString());
            assertEquals(nm == NodeModel.ONE_PORT ? 1 : 4, net.ports());
        }
    }

    @Test
    void cyclicWaitsOnATorusAreReportedAsDeadlock() {
        Mesh ring = Mesh.torus(4);
        WormholeNetwork.FabricRun run = WormholeNetwork.flit(ring, WormholeParams.parse("ss=0,sd=0,cd=1,rs=0,rd=0"),
                NodeModel.ONE_PORT).open();
        for (int i = 0; i < 4; i++) {
            run.inject(i, i, (i + 2) % 4, 100, 0);
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, run::nextDelivery);
        assertTrue(e.getMessage().contains("deadlock"), e.getMessage());
    }

    @Test
    void explicitPathsOnTheStarGraph() {
        StarGraph s4 = new StarGraph(4);
        WormholeNetwork net = WormholeNetwork.flit(s4, WormholeParams.parse("ss=1,sd=0,cd=1,rs=1,rd=0"), NodeModel.ALL_PORT);
        WormholeNetwork.FabricRun run = net.open();
        int a = s4.node("1234");
        int b = s4.neighbor(a, 0);
        int c = s4.neighbor(b, 1);
        run.inject(0, a, c, 1, 0, new int[] {a, b, c});
        assertEquals(1 + 1 + 3 * 1 + 1, run.nextDelivery()); // ss + rs + (k-1)cd + m(cd), k = 4
        assertArrayEquals(new int[] {a, b, c}, run.path(0));
        assertThrows(IllegalArgumentException.class, () -> run.inject(1, a, c, 1, 0, new int[] {a, c}));
        assertEquals(3, net.ports());
    }

    @Test
    void costModelModeKeepsTheModelsTimingAndReportsOverlaps() {
        Mesh line = Mesh.mesh(8);
        WormholeNetwork net = WormholeNetwork.model(line, ModelSpec.parse("hold=20,end=55"), NodeModel.ONE_PORT);
        WormholeNetwork.FabricRun run = net.open();
        run.inject(0, 0, 4, 0, 0);    // occupies its path during [0, 20)
        run.inject(1, 1, 5, 0, 10);   // shares 1->2 .. 3->4 during [10, 20): overlap, but no delay
        run.inject(2, 0, 1, 0, 20);   // [20, 40) on inj0, 0->1: touches message 0's interval only at its end
        assertEquals(55, run.nextDelivery());
        assertEquals(0, run.takeDelivery());
        assertEquals(65, run.nextDelivery());
        assertEquals(1, run.takeDelivery());
        assertEquals(75, run.nextDelivery());
        List<Contention> c = run.contentions();
        assertEquals(3, c.size()); // links 1->2, 2->3, 3->4
        for (Contention x : c) {
            assertEquals(1, x.message());
            assertEquals(0, x.blocker());
            assertEquals(10, x.from());
            assertEquals(20, x.until());
        }
        assertEquals(10, run.waited(1));
        assertEquals(0, run.waited(2));
        assertEquals(20, net.sendGap(0, 1, 0));
        assertEquals(20, net.receiveGap(0, 1, 0));
        assertEquals("mesh:8 hold=20,end=55 one-port", net.describe());
    }

    @Test
    void factoryParsesBothKindsOfParameters() {
        WormholeNetwork flit = Fabric.network("mesh:16x16", "ss=2000,sd=2,cd=2,rs=3500,rd=3", null);
        assertTrue(flit.flitLevel());
        assertEquals("mesh:16x16 ss=2000,sd=2,cd=2,rs=3500,rd=3 one-port", flit.describe());
        WormholeNetwork model = Fabric.network("torus:4x4x4", "hold=20+0.02m,end=55+0.07m", "all-port");
        assertFalse(model.flitLevel());
        assertEquals(6, model.ports());
        assertEquals("hold=2000+2m,end=5500+7m", Fabric.builderModel("ss=2000,sd=2,cd=2,rs=3500,rd=3").toString());
        assertEquals("hold=20,end=55", Fabric.builderModel("hold=20,end=55").toString());
        assertThrows(IllegalArgumentException.class, () -> Fabric.network("mesh:4x4", "ss=1", null));
        assertThrows(IllegalArgumentException.class, () -> Fabric.network("mesh:4x4", "hold=1,end=2", "two-port"));
    }

    /** A mistake names the form the parameters were written in; text in neither form names both (as the help). */
    @Test
    void factoryErrorsNameTheFormMeant() {
        assertTrue(Fabric.isFlitParams("sd=2,cd=2,rs=3500,rd=3"));
        assertTrue(Fabric.isFlitParams(" RS = 1 , ss=2"));
        assertFalse(Fabric.isFlitParams("hold=1,end=2"));
        assertFalse(Fabric.isFlitParams("logp:L=6,o=2,g=4"));
        String missing = assertThrows(IllegalArgumentException.class,
                () -> Fabric.network("mesh:4x4", "sd=2,cd=2,rs=3500,rd=3", null)).getMessage();
        assertTrue(missing.startsWith("wormhole params 'sd=2,cd=2,rs=3500,rd=3': missing 'ss='"), missing);
        String model = assertThrows(IllegalArgumentException.class,
                () -> Fabric.network("mesh:4x4", "hold=1", null)).getMessage();
        assertTrue(model.startsWith("model spec 'hold=1': missing 'end='"), model);
        String neither = assertThrows(IllegalArgumentException.class,
                () -> Fabric.builderModel("bogus=1")).getMessage();
        assertEquals("fabric params 'bogus=1' are neither wormhole parameters nor a cost model (expected: flit level "
                + "ss=S,sd=S,cd=C,rs=R,rd=R[,flit=BYTES], or a cost model as --model: hold=A[+Bm],end=C[+Dm][,...] or "
                + "logp:L=..,o=..,g=..[,ports=P])", neither);
    }

    @Test
    void paramsParseAndPrintCanonically() {
        WormholeParams p = WormholeParams.parse(" rd=3, ss=2000,sd=2 ,cd=2,rs=3500");
        assertEquals(WormholeParams.PAPER, p);
        assertEquals("ss=2000,sd=2,cd=2,rs=3500,rd=3", p.toString());
        assertEquals("ss=1.5,sd=2,cd=2,rs=3,rd=3,flit=8", WormholeParams.parse("ss=1.5,sd=2,cd=2,rs=3,rd=3,flit=8").toString());
        assertEquals(512, WormholeParams.parse("ss=1,sd=2,cd=2,rs=3,rd=3,flit=8").flits(4096));
        assertEquals(1, WormholeParams.PAPER.flits(0));
        for (String bad : new String[] {"", "ss=1,sd=2,cd=2,rs=3", "ss=1,sd=2,cd=2,rs=3,rd=x", "ss=1,sd=2,cd=2,rs=3,rd=3,flit=0",
                "ss=1,ss=2,sd=2,cd=2,rs=3,rd=3", "ss=1,sd=2,cd=2,rs=3,rd=3,xx=1", "ss=-1,sd=2,cd=2,rs=3,rd=3"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WormholeParams.parse(bad), bad);
            assertFalse(e.getMessage().contains("\n"));
        }
    }

    @Test
    void topologyWithoutRouteReportsNoPathForUnknownMessages() {
        Topology t = Topology.parse("complete:4");
        WormholeNetwork.FabricRun run = WormholeNetwork.flit(t, WormholeParams.PAPER, NodeModel.ONE_PORT).open();
        assertThrows(IllegalArgumentException.class, () -> run.path(3));
        assertThrows(IllegalStateException.class, run::takeDelivery);
    }
}
