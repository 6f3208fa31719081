package io.mpirunj.fabric.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(30)
class TopologyTest {

    @ParameterizedTest
    @ValueSource(strings = {"mesh:16x16", "torus:8x8", "torus:4x4x4", "hypercube:4", "star:5", "complete:8", "mesh:6"})
    void specsRoundTrip(String spec) {
        Topology t = Topology.parse(spec);
        assertEquals(spec, t.toString());
        assertEquals(t.toString(), Topology.parse(" " + spec.toUpperCase() + " ").toString());
        for (int v = 0; v < t.nodes(); v++) {
            assertEquals(v, t.node(t.label(v)));
        }
    }

    @Test
    void nodeCounts() {
        assertEquals(256, Topology.parse("mesh:16x16").nodes());
        assertEquals(64, Topology.parse("torus:4x4x4").nodes());
        assertEquals(16, Topology.parse("hypercube:4").nodes());
        assertEquals(120, Topology.parse("star:5").nodes());
        assertEquals(4, Topology.parse("star:5").degree());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "mesh", "mesh:", "mesh:16x", "mesh:0x4", "ring:4", "mesh:axb", "star:1", "star:10",
            "hypercube:0", "torus:-4", "mesh:4096x4096"})
    void badSpecsFailWithOneLine(String spec) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Topology.parse(spec));
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertTrue(e.getMessage().contains("topology spec"), e.getMessage());
    }

    @Test
    void badNodeAddresses() {
        Mesh mesh = Mesh.mesh(6, 6);
        for (String bad : new String[] {"6/0", "1", "1/2/3", "a/b", "-1/0", ""}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> mesh.node(bad));
            assertFalse(e.getMessage().contains("\n"));
        }
        assertThrows(IllegalArgumentException.class, () -> new StarGraph(4).node("1123"));
        assertThrows(IllegalArgumentException.class, () -> new StarGraph(4).node("12345"));
    }

    @Test
    void meshAddressesAreHighestDimensionFirstAndIdsFollowTheDimensionOrder() {
        Mesh mesh = Mesh.mesh(6, 6);
        int a = mesh.node("3/2");
        assertEquals(3, mesh.coordinate(a, 0));
        assertEquals(2, mesh.coordinate(a, 1));
        assertEquals(3 * 6 + 2, a);
        assertTrue(mesh.compareDimensionOrder(mesh.node("2/5"), mesh.node("3/0")) < 0);
        assertTrue(mesh.compareDimensionOrder(mesh.node("3/1"), mesh.node("3/2")) < 0);
    }

    @Test
    void meshRoutesCorrectTheFirstCoordinateFirst() {
        Mesh mesh = Mesh.mesh(6, 6);
        // The paper's figure 9: (4,4)->(5,1) goes through (5,4), sharing (4,4)->(5,4) with (4,4)->(5,4).
        assertEquals("4/4 5/4 5/3 5/2 5/1", labels(mesh, mesh.route(mesh.node("4/4"), mesh.node("5/1"))));
        assertEquals("3/2 2/2 1/2 1/3 1/4 1/5", labels(mesh, mesh.route(mesh.node("3/2"), mesh.node("1/5"))));
        assertEquals("3/2", labels(mesh, mesh.route(mesh.node("3/2"), mesh.node("3/2"))));
        assertEquals(-1, mesh.neighbor(mesh.node("5/5"), 0));
        assertEquals(-1, mesh.neighbor(mesh.node("0/0"), 3));
    }

    @Test
    void torusTakesTheShorterWayRoundAndTiesGoPlus() {
        Mesh torus = Mesh.torus(8, 8);
        assertEquals("0/0 7/0 7/7", labels(torus, torus.route(torus.node("0/0"), torus.node("7/7"))));
        assertEquals("0/0 1/0 2/0 3/0 4/0", labels(torus, torus.route(torus.node("0/0"), torus.node("4/0"))));
        assertEquals("6/0 7/0 0/0 1/0 2/0", labels(torus, torus.route(torus.node("6/0"), torus.node("2/0"))));
        Mesh t3 = (Mesh) Topology.parse("torus:4x4x4");
        assertEquals(6, t3.degree());
        assertEquals(t3.node("0/0/3"), t3.neighbor(t3.node("0/0/0"), 5));
    }

    @Test
    void hypercubeIsEcubeRouted() {
        Mesh cube = Mesh.hypercube(4);
        assertEquals(cube.node("1/0/1/1"), cube.node("1011"));
        assertEquals("0/0/0/0 1/0/0/0 1/0/0/1", labels(cube, cube.route(0, cube.node("1001"))));
        for (int v = 0; v < 16; v++) {
            for (int d = 0; d < 8; d++) {
                int u = cube.neighbor(v, d);
                assertTrue(u == -1 || Integer.bitCount(u ^ v) == 1);
            }
        }
    }

    @Test
    void routesAreWalksOfMinimalLength() {
        Random random = new Random(5);
        for (Topology t : new Topology[] {Mesh.mesh(5, 7), Mesh.torus(5, 6), Mesh.torus(3, 4, 4), Mesh.hypercube(5),
                new StarGraph(4), new StarGraph(5), new CompleteGraph(6)}) {
            for (int trial = 0; trial < 200; trial++) {
                int s = random.nextInt(t.nodes());
                int d = random.nextInt(t.nodes());
                int[] path = t.route(s, d);
                t.channels(path, s, d);
                assertEquals(bfs(t, s)[d], path.length - 1, t + " " + t.label(s) + "->" + t.label(d));
            }
        }
    }

    @Test
    void starGraphLinksSwapTheFirstSymbol() {
        StarGraph s4 = new StarGraph(4);
        int v = s4.node("4321");
        assertEquals("3421", s4.label(s4.neighbor(v, 0)));
        assertEquals("2341", s4.label(s4.neighbor(v, 1)));
        assertEquals("1324", s4.label(s4.neighbor(v, 2)));
        assertEquals(v, s4.node("dcba"));
        assertEquals(2, s4.direction(v, s4.node("1324")));
        assertEquals(-1, s4.direction(v, s4.node("3241")));
        // Diameter floor(3(n-1)/2) = 4 for S_4, 6 for S_5.
        assertEquals(4, Arrays.stream(bfs(s4, 0)).max().getAsInt());
        assertEquals(6, Arrays.stream(bfs(new StarGraph(5), 7)).max().getAsInt());
    }

    @Test
    void channelsAreNumberedPerDirection() {
        Mesh mesh = Mesh.mesh(6, 6);
        int c = mesh.channel(mesh.node("4/4"), mesh.node("5/4"));
        assertEquals("4/4->5/4", mesh.channelLabel(c));
        assertTrue(c < mesh.linkChannels());
        assertThrows(IllegalArgumentException.class, () -> mesh.channel(0, 7));
        CompleteGraph k5 = new CompleteGraph(5);
        assertEquals("3->1", k5.channelLabel(k5.channel(3, 1)));
    }

    private static int[] bfs(Topology t, int s) {
        int[] dist = new int[t.nodes()];
        Arrays.fill(dist, -1);
        dist[s] = 0;
        ArrayDeque<Integer> q = new ArrayDeque<>();
        q.add(s);
        while (!q.isEmpty()) {
            int v = q.poll();
            for (int d = 0; d < t.degree(); d++) {
                int u = t.neighbor(v, d);
                if (u >= 0 && dist[u] < 0) {
                    dist[u] = dist[v] + 1;
                    q.add(u);
                }
            }
        }
        return dist;
    }

    private static String labels(Topology t, int[] path) {
        StringBuilder sb = new StringBuilder();
        for (int v : path) {
            sb.append(sb.length() == 0 ? "" : " ").append(t.label(v));
        }
        return sb.toString();
    }
}
