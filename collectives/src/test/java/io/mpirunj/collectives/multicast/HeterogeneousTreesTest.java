package io.mpirunj.collectives.multicast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.collectives.schedule.Instruction;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.schedule.Verifier;
import io.mpirunj.collectives.sim.Message;
import io.mpirunj.collectives.sim.Simulation;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.HeteroSpec;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.fabric.model.PairCostModel;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** FEF, ECEF and TTCC on small hand-checked matrices (costs are latencies; messages of 0 bytes). */
class HeterogeneousTreesTest {

    /**
     * Symmetric costs: 0-1 = 1, 0-2 = 2, 0-3 = 2.5, 1-2 = 10, 1-3 = 3, 2-3 = 10.
     * FEF: 0→1, 0→2, 0→3 (root sends 1, 2, 2.5 in turn: 5.5).
     * ECEF: 0→1 (1), 0→2 (3), then 1→3 (1 + 3 = 4) beats 0→3 (3 + 2.5 = 5.5): completion 4.
     * T1 on the links ECEF left (0-3, 1-2, 2-3): 0→3, 3→2, 2→1.
     */
    private static final double[][] PREDICTED = {
        {0, 1, 2, 2.5},
        {1, 0, 10, 3},
        {2, 10, 0, 10},
        {2.5, 3, 10, 0},
    };

    static PairCostModel costs(double[][] cost, double alpha) {
        int n = cost.length;
        double[][] bandwidth = new double[n][n];
        for (double[] row : bandwidth) {
            java.util.Arrays.fill(row, 1);
        }
        return new PairCostModel(cost, bandwidth, null, alpha);
    }

    private static List<String> sends(Schedule s) {
        List<String> edges = new java.util.ArrayList<>();
        for (int r = 0; r < s.ranks(); r++) {
            for (Instruction in : s.program(r)) {
                if (in.isSend()) {
                    edges.add(r + "->" + in.peer());
                }
            }
        }
        return edges;
    }

    @Test
    void fefTakesTheCheapestEdgesEcefTheEarliestCompleting() {
        PairCostModel m = costs(PREDICTED, 0);
        Schedule fef = FefMulticast.build(4, 0, 0, m);
        Schedule ecef = EcefMulticast.build(4, 0, 0, m);
        assertEquals(List.of("0->1", "0->2", "0->3"), sends(fef));
        assertEquals(List.of("0->1", "0->2", "1->3"), sends(ecef));
        assertTrue(Verifier.verify(fef).isEmpty());
        assertTrue(Verifier.verify(ecef).isEmpty());
        assertEquals(5.5, Simulator.event(fef, m).completion());
        assertEquals(4, Simulator.event(ecef, m).completion());
    }

    @Test
    void ttccSecondTreeUsesOnlyTheLinksTheFirstLeft() {
        Schedule ttcc = TtccMulticast.build(4, 0, 0, costs(PREDICTED, 0));
        assertTrue(Verifier.verify(ttcc).isEmpty(), () -> String.join("\n", Verifier.verify(ttcc)));
        // T0 sends first at every node, then T1
        assertEquals(List.of("0->1", "0->2", "0->3", "1->3", "2->1", "3->2"), sends(ttcc));
        assertEquals(List.of(Instruction.recvFirstOf(new int[] {0, 2}, io.mpirunj.collectives.schedule.Block.WHOLE_ONLY, 1)),
                ttcc.program(1).subList(0, 1));
        assertArrayEquals(new int[] {0, 3}, ttcc.program(2).get(0).peers());
        assertArrayEquals(new int[] {1, 0}, ttcc.program(3).get(0).peers());
        assertEquals("T0 3 edges, T1 3 edges", ttcc.note());
    }

    @Test
    void t1SharesNoLinkWithT0OnPaperNetworks() {
        for (int seed = 0; seed < 20; seed++) {
            PairCostModel m = HeteroSpec.parse("paper").real(40, new Random(seed), "paper");
            double[][] cost = PairTrees.plan(40, 1_000_000, m, "test");
            PairTrees.Tree t0 = PairTrees.grow(40, cost, 0, null, PairTrees.Rule.ECEF);
            PairTrees.Tree t1 = PairTrees.grow(40, cost, 0, t0, PairTrees.Rule.ECEF);
            assertEquals(40, t0.size());
            assertEquals(40, t1.size(), "a non-star T0 on 40 nodes leaves T1 a spanning tree");
            for (int v = 1; v < 40; v++) {
                assertFalse(t0.hasLink(v, t1.parent[v]), "seed " + seed + ": T1 edge " + t1.parent[v] + "->" + v);
            }
            Schedule ttcc = TtccMulticast.build(40, 0, 1_000_000, m);
            assertTrue(Verifier.verify(ttcc).isEmpty());
            // ECEF is TTCC's first tree
            List<String> ecef = sends(EcefMulticast.build(40, 0, 1_000_000, m));
            assertTrue(sends(ttcc).containsAll(ecef));
        }
    }

    @Test
    void ttccBeatsEcefWhenALinkIsSlowerThanPredicted() {
        // The real network: link 1-3 is ten times slower than predicted (paper 003, figure 4's situation:
        // ECEF's tree feeds node 3 over a link that turned out slow; TTCC's T1 gives 3 a copy from the root).
        double[][] real = new double[4][];
        for (int a = 0; a < 4; a++) {
            real[a] = PREDICTED[a].clone();
        }
        real[1][3] = 30;
        real[3][1] = 30;
        double alpha = 0.5;
        PairCostModel predicted = costs(PREDICTED, alpha);
        PairCostModel actual = costs(real, alpha);
        Schedule ecef = EcefMulticast.build(4, 0, 0, predicted);
        Schedule ttcc = TtccMulticast.build(4, 0, 0, predicted);
        // ECEF: node 3 waits for 1→3, 1 + 30
        assertEquals(31, Simulator.event(ecef, actual).completion());
        // TTCC: root sends 0→1 [0,1], 0→2 [1,3], then its T1 edge 0→3 [3,5.5]; 1→3 is still on its way,
        // so node 3 takes α to choose: it holds the data at 5.5 + 0.5
        Simulation t = Simulator.event(ttcc, actual);
        assertEquals(6, t.completion());
        assertEquals(6, t.rankCompletion(3));
        Message late = t.messages().stream().filter(m -> m.src() == 1 && m.dst() == 3).findFirst().orElseThrow();
        assertTrue(late.dropped());
        assertEquals(31, late.end());
        // With exact information TTCC costs α over ECEF (node 3 also sees two copies in flight)
        assertEquals(4, Simulator.event(ecef, predicted).completion());
        assertEquals(4.5, Simulator.event(ttcc, predicted).completion());
        assertEquals(4, Simulator.event(ttcc, costs(PREDICTED, 0)).completion());
    }

    @Test
    void onAUniformModelTreesUseTheUnitMatrixAndTtccHasASecondTreeFromThreeRanks() {
        var uniform = ModelSpec.parse("hold=20+0.02m,end=55+0.07m");
        Schedule three = TtccMulticast.build(3, 0, 8, uniform);
        assertEquals(List.of("0->1", "0->2", "1->2"), sends(three)); // T0 0→1→2, T1 0→2
        assertArrayEquals(new int[] {1, 0}, three.program(2).get(0).peers());
        assertEquals(Instruction.Kind.RECV, three.program(1).get(0).kind());
        // ECEF on the unit matrix is binomial: 8 ranks in 3 rounds
        Schedule ecef = EcefMulticast.build(8, 0, 8, uniform);
        assertEquals(List.of("0->1", "0->3", "0->7", "1->2", "1->6", "2->5", "3->4"), sends(ecef).stream().sorted().toList());
        for (int n = 1; n <= 17; n++) {
            for (int root = 0; root < n; root++) {
                Schedule s = TtccMulticast.build(n, root, 64, uniform);
                assertTrue(Verifier.verify(s).isEmpty(), n + " ranks root " + root);
                long firstOf = java.util.stream.IntStream.range(0, n)
                        .filter(r -> !s.program(r).isEmpty() && s.program(r).get(0).kind() == Instruction.Kind.RECV_FIRST_OF)
                        .count();
                assertEquals(n >= 3, firstOf > 0, n + " ranks root " + root + ": T1 reaches " + firstOf + " ranks");
            }
        }
    }

    @Test
    void aMatrixOfTheWrongSizeIsRefused() {
        PairCostModel m = costs(PREDICTED, 0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TtccMulticast.build(5, 0, 0, m));
        assertEquals("ttcc on pair:nodes=4: the matrix has 4 nodes (expected: 5, one per rank)", e.getMessage());
    }
}
