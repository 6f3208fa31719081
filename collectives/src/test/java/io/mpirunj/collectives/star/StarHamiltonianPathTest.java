package io.mpirunj.collectives.star;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.fabric.topology.StarGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StarHamiltonianPathTest {

    @ParameterizedTest(name = "S_{0}")
    @ValueSource(ints = {2, 3, 4, 5, 6, 7, 8})
    void visitsEveryNodeOnceAlongGenerators(int n) {
        int[] path = StarHamiltonianPath.of(n, 0);
        StarHamiltonianPath.check(n, path, 0, 0);
        StarGraph star = new StarGraph(n);
        for (int x = 0; x + 1 < path.length; x++) {
            assertTrue(star.direction(path[x], path[x + 1]) >= 0, "entries " + x + ", " + (x + 1));
        }
    }

    @ParameterizedTest(name = "substars of S_{0}")
    @ValueSource(ints = {3, 4, 5, 6, 7, 8})
    void substarPathsStartAtTheSourcesNeighbour(int n) {
        StarGraph star = new StarGraph(n);
        for (int source : new int[] {0, star.nodes() - 1, star.nodes() / 3}) {
            int symbol = star.permutation(source)[0];
            for (int l = 2; l <= n; l++) {
                int[] path = StarHamiltonianPath.substar(n, source, l);
                StarHamiltonianPath.check(n, path, l, symbol);
                assertEquals(star.neighbor(source, l - 2), path[0]);
            }
        }
    }

    /** Figure 3's substar: HP(3, cba) with d inserted at position 2 starts at cdba, dcba's g_2 neighbour. */
    @Test
    void s4SubstarOfDcba() {
        StarGraph star = new StarGraph(4);
        int[] path = StarHamiltonianPath.substar(4, star.node("dcba"), 2);
        assertEquals("3421", star.label(path[0])); // cdba
        assertEquals(6, path.length);
        for (int node : path) {
            assertEquals(4, star.permutation(node)[1]); // d stays at position 2
        }
    }

    @Test
    void checkRejectsBrokenPaths() {
        int[] path = StarHamiltonianPath.of(4, 0);
        int[] swapped = path.clone();
        swapped[5] = path[7];
        swapped[7] = path[5];
        assertThrows(IllegalStateException.class, () -> StarHamiltonianPath.check(4, swapped, 0, 0));
        int[] repeated = path.clone();
        repeated[3] = path[1];
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> StarHamiltonianPath.check(4, repeated, 0, 0));
        assertTrue(e.getMessage().contains("not linked") || e.getMessage().contains("twice"), e.getMessage());
        assertThrows(IllegalStateException.class,
                () -> StarHamiltonianPath.check(4, java.util.Arrays.copyOf(path, 23), 0, 0));
        int[] sub = StarHamiltonianPath.substar(4, 0, 3);
        assertThrows(IllegalStateException.class, () -> StarHamiltonianPath.check(4, sub, 2, 1)); // wrong substar
    }
}
