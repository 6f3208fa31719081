package io.mpirunj.collectives.multicast;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.sim.Evaluation;
import io.mpirunj.collectives.sim.Simulation;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import org.junit.jupiter.api.Test;

/** The numbers SPEC.md marks [ref], from schedules simulated on the papers' models. */
class PaperReferenceTest {

    private static final CostModel SEVEN_NODE_MODEL = ModelSpec.parse("hold=10,end=40");
    private static final CostModel LOGP = ModelSpec.parse("logp:L=6,o=2,g=4");

    @Test
    void optTreeOnSevenNodesTakes80() {
        Schedule s = OptTreeMulticast.build(7, 0, 0, SEVEN_NODE_MODEL);
        assertEquals(80, Simulator.event(s, SEVEN_NODE_MODEL).completion());
        assertEquals(80, OptTreeMulticast.table(7, 0, SEVEN_NODE_MODEL).time(7));
    }

    @Test
    void binomialOnSevenNodesTakes120InRoundsAnd90EventDriven() {
        Schedule s = BinomialMulticast.build(7, 0, 0, SEVEN_NODE_MODEL);
        Simulation rounds = Simulator.simulate(s, SEVEN_NODE_MODEL, Evaluation.ROUNDS);
        Simulation event = Simulator.simulate(s, SEVEN_NODE_MODEL, Evaluation.EVENT);
        assertEquals(Evaluation.ROUNDS, rounds.evaluation());
        assertEquals(120, rounds.completion());
        assertEquals(Evaluation.EVENT, event.evaluation());
        assertEquals(90, event.completion());
    }

    @Test
    void table1TreeOnNineNodesTakes135() {
        CostModel model = ModelSpec.parse("hold=20,end=55");
        assertEquals(135, Simulator.event(OptTreeMulticast.build(9, 0, 0, model), model).completion());
    }

    @Test
    void eightNodesUnderLogPFibonacciTakes24AndBinarySplit30() {
        Schedule fibonacci = FibonacciMulticast.build(8, 0, 0, LOGP);
        Schedule binary = BinarySplitMulticast.build(8, 0, 0, LOGP);
        assertEquals(24, Simulator.event(fibonacci, LOGP).completion());
        assertEquals(30, Simulator.event(binary, LOGP).completion());
        // The paper's own formulas agree: eq. (3)-(4) and eq. (2).
        assertEquals(24, FibonacciMulticast.paperTime(8, 4, 10));
        assertEquals(30, BinarySplitMulticast.paperTime(8, 10));
    }

    @Test
    void ibmSpLinearModelChargesBySize() {
        // hold = 20 + 0.02 m, end = 55 + 0.07 m at m = 1000: hold = 40, end = 125.
        CostModel sp = ModelSpec.parse("hold=20+0.02m,end=55+0.07m");
        OptTreeTable table = OptTreeMulticast.table(9, 1000, sp);
        assertEquals(OptTreeTable.algorithm1(9, 40, 125).time(9), table.time(9));
        assertEquals(table.time(9), Simulator.event(OptTreeMulticast.build(9, 0, 1000, sp), sp).completion(), 1e-9);
    }
}
