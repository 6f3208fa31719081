package io.mpirunj.fabric.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CostModelsTest {

    private static final double INF = Double.POSITIVE_INFINITY;

    @Test
    void pairCostIsLatencyPlusSizeOverBandwidthForBothHoldAndEnd() {
        PairCostModel model = new PairCostModel(
                new double[][] {{0, 10}, {20, 0}},
                new double[][] {{INF, 100}, {50, INF}});
        assertEquals(10 + 1000 / 100.0, model.tEnd(0, 1, 1000));
        assertEquals(20 + 1000 / 50.0, model.tEnd(1, 0, 1000));
        assertEquals(model.tEnd(0, 1, 1000), model.tHold(0, 1, 1000));
        assertFalse(model.uniform());
        assertThrows(UnsupportedOperationException.class, () -> model.tEnd(1000));
    }

    @Test
    void pairModelRejectsBadMatrices() {
        assertThrows(IllegalArgumentException.class,
                () -> new PairCostModel(new double[][] {{0, 1}, {1, 0}}, new double[][] {{1, 1}}));
        assertThrows(IllegalArgumentException.class,
                () -> new PairCostModel(new double[][] {{0, 1}, {1, 0}}, new double[][] {{1, 0}, {1, 1}}));
        assertThrows(IllegalArgumentException.class,
                () -> new PairCostModel(new double[][] {{0, -1}, {1, 0}}, new double[][] {{1, 1}, {1, 1}}));
    }

    @Test
    void pairModelCopiesItsInput() {
        double[][] latency = {{0, 5}, {5, 0}};
        PairCostModel model = new PairCostModel(latency, new double[][] {{1, 1}, {1, 1}});
        latency[0][1] = 99;
        assertEquals(5, model.latency(0, 1));
    }

    @Test
    void costModelNetworkDeliversAtStartPlusEndInTimeThenIdOrder() {
        NetworkModel net = new CostModelNetwork(ModelSpec.parse("hold=10+1m,end=40"));
        assertEquals(10 + 3, net.sendGap(0, 1, 3));
        assertEquals(10 + 3, net.receiveGap(0, 1, 3));
        NetworkModel.Run run = net.open();
        assertEquals(INF, run.nextDelivery());
        run.inject(7, 0, 1, 0, 5);
        run.inject(3, 0, 2, 0, 5);
        run.inject(1, 1, 2, 0, 20);
        assertEquals(45, run.nextDelivery());
        assertEquals(3, run.takeDelivery());
        assertEquals(7, run.takeDelivery());
        assertEquals(60, run.nextDelivery());
        assertEquals(1, run.takeDelivery());
        assertEquals(INF, run.nextDelivery());
        assertThrows(IllegalStateException.class, run::takeDelivery);
    }

    @Test
    void numbersPrintIntegralValuesWithoutAFraction() {
        assertEquals("130", Numbers.format(130.0));
        assertEquals("0.02", Numbers.format(0.02));
        assertEquals("-3", Numbers.format(-3.0));
        assertEquals("1234567.5", Numbers.format(1234567.5));
        assertThrows(IllegalArgumentException.class, () -> Numbers.format(Double.NaN));
    }
}
