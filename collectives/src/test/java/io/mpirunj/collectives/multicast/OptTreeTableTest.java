package io.mpirunj.collectives.multicast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.ParameterizedModel;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class OptTreeTableTest {

    /** Paper 000, Table 1: k = 9, t_hold = 20, t_end = 55. */
    @Test
    void algorithm1ReproducesTable1() {
        OptTreeTable table = OptTreeTable.algorithm1(9, 20, 55);
        int[] j = new int[9];
        double[] t = new double[9];
        for (int i = 1; i <= 9; i++) {
            j[i - 1] = table.split(i);
            t[i - 1] = table.time(i);
        }
        assertArrayEquals(new int[] {0, 1, 2, 3, 3, 4, 5, 5, 6}, j, "j_i (0 stands for the table's '-')");
        assertArrayEquals(new double[] {0, 55, 75, 95, 110, 115, 130, 130, 135}, t);
    }

    @Test
    void everyTableAgreesOnTable1() {
        for (OptTreeTable table : new OptTreeTable[] {
                OptTreeTable.fullDp(9, 20, 55, 1), OptTreeTable.dp(9, 20, 55, 1), OptTreeTable.of(9, 20, 55, 1)}) {
            for (int i = 1; i <= 9; i++) {
                assertEquals(OptTreeTable.algorithm1(9, 20, 55).time(i), table.time(i), "t[" + i + "]");
            }
        }
    }

    @Test
    void holdEqualToEndGivesTheBinomialTime() {
        for (int k = 1; k <= 64; k++) {
            double rounds = k == 1 ? 0 : 32 - Integer.numberOfLeadingZeros(k - 1);
            assertEquals(rounds * 20, OptTreeTable.of(k, 20, 20, 1).time(k), "k=" + k);
        }
    }

    @Test
    @Timeout(30)
    void algorithm1EqualsTheFullDpWheneverHoldIsAtMostEnd() {
        Random random = new Random(20240601L);
        for (int trial = 0; trial < 400; trial++) {
            int k = 1 + random.nextInt(500);
            double end = random.nextInt(200);
            double hold = random.nextInt((int) end + 1);
            OptTreeTable fast = OptTreeTable.algorithm1(k, hold, end);
            OptTreeTable full = OptTreeTable.fullDp(k, hold, end, 1);
            for (int i = 1; i <= k; i++) {
                assertEquals(full.time(i), fast.time(i), "k=" + k + " hold=" + hold + " end=" + end + " i=" + i);
            }
        }
    }

    @Test
    @Timeout(30)
    void bisectionDpEqualsTheLiteralDpForAnyParametersAndPorts() {
        Random random = new Random(7L);
        for (int trial = 0; trial < 400; trial++) {
            int k = 1 + random.nextInt(400);
            double hold = random.nextInt(150) + (random.nextBoolean() ? 0.5 : 0);
            double end = random.nextInt(150);
            int ports = 1 + random.nextInt(4);
            OptTreeTable fast = OptTreeTable.dp(k, hold, end, ports);
            OptTreeTable full = OptTreeTable.fullDp(k, hold, end, ports);
            for (int i = 1; i <= k; i++) {
                assertEquals(full.time(i), fast.time(i),
                        "k=" + k + " hold=" + hold + " end=" + end + " ports=" + ports + " i=" + i);
            }
        }
    }

    @Test
    void tablesAreNonDecreasing() {
        Random random = new Random(11L);
        for (int trial = 0; trial < 100; trial++) {
            int ports = 1 + random.nextInt(3);
            OptTreeTable t = OptTreeTable.dp(300, random.nextInt(100), random.nextInt(100), ports);
            for (int i = 2; i <= 300; i++) {
                assertTrue(t.time(i - 1) <= t.time(i), "t must not decrease, i=" + i);
            }
        }
    }

    /**
     * SPEC section 1: Algorithm 1's shortcut is not exact when t_hold > t_end. Sweep small
     * parameters, build a tree from Algorithm 1's splits, and find one that is slower than the DP
     * (the DP tree, which the builder uses there, always meets the DP time).
     */
    @Test
    @Timeout(30)
    void algorithm1CanBeWrongWhenHoldExceedsEndSoTheBuilderUsesTheDp() {
        int worse = 0;
        for (int hold = 1; hold <= 12; hold++) {
            for (int end = 0; end < hold; end++) {
                ParameterizedModel model = ParameterizedModel.of(hold, end);
                for (int k = 2; k <= 30; k++) {
                    OptTreeTable dp = OptTreeTable.dp(k, hold, end, 1);
                    double paperTree = Simulator.event(OptTreeMulticast.build(k, 0, 0, OptTreeTable.algorithm1(k, hold, end)), model).completion();
                    double dpTree = Simulator.event(OptTreeMulticast.build(k, 0, 0, model), model).completion();
                    assertEquals(dp.time(k), dpTree, "hold=" + hold + " end=" + end + " k=" + k);
                    assertTrue(paperTree >= dpTree);
                    worse += paperTree > dpTree ? 1 : 0;
                }
            }
        }
        assertTrue(worse > 0, "expected Algorithm 1 to lose somewhere with t_hold > t_end");
    }

    @Test
    void multiPortWithOnePortIsTheOnePortTable() {
        Random random = new Random(5L);
        for (int trial = 0; trial < 50; trial++) {
            int k = 1 + random.nextInt(300);
            double hold = random.nextInt(100);
            double end = random.nextInt(100);
            assertEquals(OptTreeTable.fullDp(k, hold, end, 1).time(k), OptTreeTable.of(k, hold, end, 1).time(k));
            double two = OptTreeTable.of(k, hold, end, 2).time(k);
            assertTrue(two <= OptTreeTable.of(k, hold, end, 1).time(k), "a second port never hurts");
        }
    }
}
