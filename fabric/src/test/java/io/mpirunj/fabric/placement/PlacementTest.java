package io.mpirunj.fabric.placement;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.mpirunj.fabric.topology.Mesh;
import io.mpirunj.fabric.topology.Topology;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PlacementTest {

    private static final Topology MESH = Topology.parse("mesh:6x6");

    @Test
    void identity() {
        assertArrayEquals(new int[] {0, 1, 2}, Placement.parse("identity", MESH, 3));
    }

    @Test
    void onlyAnExplicitListFixesTheRankCount() {
        assertEquals(8, Placement.listedRanks("3/2,1/5,2/1,3/4,4/3,4/4,5/1,5/4"));
        assertEquals(1, Placement.listedRanks(" 2/2 "));
        assertEquals(-1, Placement.listedRanks("identity"));
        assertEquals(-1, Placement.listedRanks("random:7"));
        assertEquals(-1, Placement.listedRanks(null));
    }

    @Test
    void explicitListIsOneAddressPerRank() {
        int[] nodeOf = Placement.parse("3/2,1/5,2/1,3/4,4/3,4/4,5/1,5/4", MESH, 8);
        Mesh mesh = (Mesh) MESH;
        assertEquals(mesh.node(3, 2), nodeOf[0]);
        assertEquals(mesh.node(5, 4), nodeOf[7]);
    }

    @Test
    void randomIsReproducibleDistinctAndSeedDependent() {
        Topology t = Topology.parse("mesh:16x16");
        int[] a = Placement.parse("random:7", t, 256);
        assertArrayEquals(a, Placement.parse("random:7", t, 256));
        assertEquals(256, Arrays.stream(a).distinct().count());
        assertFalse(Arrays.equals(Placement.parse("random:7", t, 32), Placement.parse("random:8", t, 32)));
        // A prefix of the same shuffle: the first 32 ranks sit where they sit with 256.
        assertArrayEquals(Arrays.copyOf(a, 32), Placement.parse("random:7", t, 32));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "random:", "random:x", "3/2,3/2", "3/2,9/9", "3/2", "3/2,1/5,2/1", "ident"})
    void badSpecsFailWithOneLine(String spec) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Placement.parse(spec, MESH, 2));
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void tooManyRanks() {
        assertThrows(IllegalArgumentException.class, () -> Placement.parse("identity", MESH, 37));
        assertThrows(IllegalArgumentException.class, () -> Placement.parse("identity", MESH, 0));
    }
}
