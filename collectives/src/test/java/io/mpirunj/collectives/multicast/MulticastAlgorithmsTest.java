package io.mpirunj.collectives.multicast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.fabric.model.PairCostModel;
import java.util.List;
import org.junit.jupiter.api.Test;

class MulticastAlgorithmsTest {

    @Test
    void tableListsTheAlgorithmsInKebabCase() {
        assertEquals(List.of("sequential", "chain", "binomial", "binary-split", "opt-tree", "opt-tree-multiport",
                "fibonacci", "chain-pipelined", "binomial-segmented", "fef", "ecef", "ttcc"), MulticastAlgorithms.names());
        for (MulticastAlgorithms.Entry e : MulticastAlgorithms.all()) {
            assertTrue(e.name().matches("[a-z]+(-[a-z]+)*"), e.name());
            assertTrue(!e.description().isBlank() && !e.description().contains("\n"), e.name());
            assertEquals(e, MulticastAlgorithms.lookup(e.name()));
        }
    }

    @Test
    void unknownNameListsTheValidOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MulticastAlgorithms.lookup("opt_tree"));
        assertEquals("unknown multicast algorithm 'opt_tree' (expected one of: sequential, chain, binomial, "
                + "binary-split, opt-tree, opt-tree-multiport, fibonacci, chain-pipelined, binomial-segmented, fef, ecef, ttcc)",
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> MulticastAlgorithms.lookup(null));
    }

    @Test
    void helpHasOneLinePerAlgorithm() {
        String[] lines = MulticastAlgorithms.help().split("\n");
        assertEquals(MulticastAlgorithms.names().size(), lines.length);
        assertTrue(lines[4].startsWith("opt-tree "), lines[4]);
    }

    @Test
    void buildersRejectBadArguments() {
        CostModel model = ModelSpec.parse("hold=1,end=2");
        for (String name : MulticastAlgorithms.names()) {
            assertThrows(IllegalArgumentException.class, () -> MulticastAlgorithms.multicast(name, 0, 0, 1, model), name);
            assertThrows(IllegalArgumentException.class, () -> MulticastAlgorithms.multicast(name, 4, 4, 1, model), name);
            assertThrows(IllegalArgumentException.class, () -> MulticastAlgorithms.multicast(name, 4, -1, 1, model), name);
            assertThrows(IllegalArgumentException.class, () -> MulticastAlgorithms.multicast(name, 4, 0, -1, model), name);
        }
    }

    @Test
    void modelDrivenBuildersNeedAUniformModelOthersDoNot() {
        PairCostModel pair = new PairCostModel(new double[][] {{0, 1}, {1, 0}}, new double[][] {{1, 1}, {1, 1}});
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MulticastAlgorithms.multicast("opt-tree", 2, 0, 1, pair));
        assertTrue(e.getMessage().contains("needs a uniform cost model"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> MulticastAlgorithms.multicast("opt-tree-multiport", 2, 0, 1, null));
        for (String name : List.of("sequential", "chain", "binomial", "binary-split", "fibonacci",
                "chain-pipelined", "binomial-segmented")) {
            assertEquals(2, MulticastAlgorithms.multicast(name, 2, 0, 1, null).ranks(), name);
            assertEquals(2, MulticastAlgorithms.multicast(name, 2, 0, 1, pair).ranks(), name);
        }
    }

    @Test
    void buildersArePure() {
        CostModel model = ModelSpec.parse("hold=20+0.02m,end=55+0.07m");
        for (String name : MulticastAlgorithms.names()) {
            var a = MulticastAlgorithms.multicast(name, 33, 7, 100_000, model);
            var b = MulticastAlgorithms.multicast(name, 33, 7, 100_000, model);
            for (int r = 0; r < 33; r++) {
                assertEquals(a.program(r), b.program(r), name);
            }
        }
    }
}
