package io.mpirunj.collectives.multicast;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.schedule.Verifier;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** 10,000 ranks build, verify and simulate (the benchmark module measures how fast). */
class LargeBuildTest {

    private static final int RANKS = 10_000;

    @Test
    @Timeout(60)
    void optTreeForTenThousandRanks() {
        CostModel model = ModelSpec.parse("hold=20+0.02m,end=55+0.07m");
        Schedule s = OptTreeMulticast.build(RANKS, 1234, 4096, model);
        assertEquals(List.of(), Verifier.verify(s));
        assertEquals(OptTreeMulticast.table(RANKS, 4096, model).time(RANKS), Simulator.event(s, model).completion(), 1e-6);
    }

    @Test
    @Timeout(60)
    void optTreeWithHoldAboveEndForTenThousandRanks() {
        CostModel model = ModelSpec.parse("hold=70,end=20");
        Schedule s = OptTreeMulticast.build(RANKS, 0, 0, model);
        assertEquals(OptTreeMulticast.table(RANKS, 0, model).time(RANKS), Simulator.event(s, model).completion());
    }

    @Test
    @Timeout(60)
    void fibonacciForTenThousandRanks() {
        CostModel logp = ModelSpec.parse("logp:L=6,o=2,g=4");
        Schedule s = FibonacciMulticast.build(RANKS, 9999, 0, logp);
        assertEquals(List.of(), Verifier.verify(s));
        assertEquals(FibonacciMulticast.paperTime(RANKS, 4, 10), Simulator.event(s, logp).completion());
    }

    @Test
    @Timeout(60)
    void everyBuilderForTenThousandRanks() {
        CostModel model = ModelSpec.parse("hold=10,end=40,ports=2");
        for (String name : MulticastAlgorithms.names()) {
            Schedule s = MulticastAlgorithms.multicast(name, RANKS, 17, 1000, model);
            assertEquals(List.of(), Verifier.verify(s), name);
        }
    }
}
