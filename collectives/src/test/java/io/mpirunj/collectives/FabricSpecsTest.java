package io.mpirunj.collectives;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.mpirunj.fabric.placement.Placement;
import io.mpirunj.fabric.topology.Topology;
import org.junit.jupiter.api.Test;

/** The fabric-bound algorithms' specs, parsed once and reused: the same results as parsing each time. */
class FabricSpecsTest {
    @Test
    void aSpecIsParsedOnceAndGivesWhatParsingGives() {
        Topology mesh = FabricSpecs.topology("mesh:4x4");
        assertSame(mesh, FabricSpecs.topology("mesh:4x4"));
        assertEquals(Topology.parse("mesh:4x4").toString(), mesh.toString());
        int[] placed = FabricSpecs.nodeOf("random:7", "mesh:4x4", 16);
        assertSame(placed, FabricSpecs.nodeOf("random:7", "mesh:4x4", 16));
        assertArrayEquals(Placement.parse("random:7", Topology.parse("mesh:4x4"), 16), placed);
        assertArrayEquals(Placement.identity(6), FabricSpecs.nodeOf(null, "mesh:4x4", 6));
        assertSame(FabricSpecs.nodeOf(null, "mesh:4x4", 6), FabricSpecs.nodeOf("identity", "mesh:4x4", 6));
    }

    @Test
    void aBadSpecFailsEveryCallWithTheParsersMessage() {
        String expected = assertThrows(IllegalArgumentException.class, () -> Topology.parse("mesh:0x")).getMessage();
        for (int call = 0; call < 2; call++) {
            assertEquals(expected, assertThrows(IllegalArgumentException.class,
                    () -> FabricSpecs.topology("mesh:0x")).getMessage());
        }
        String tooMany = assertThrows(IllegalArgumentException.class,
                () -> Placement.parse("identity", Topology.parse("mesh:2x2"), 5)).getMessage();
        for (int call = 0; call < 2; call++) {
            assertEquals(tooMany, assertThrows(IllegalArgumentException.class,
                    () -> FabricSpecs.nodeOf(null, "mesh:2x2", 5)).getMessage());
        }
    }
}
