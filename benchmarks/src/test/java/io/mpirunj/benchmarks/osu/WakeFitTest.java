package io.mpirunj.benchmarks.osu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mpirunj.collectives.catalogue.AlgorithmCatalogue;
import io.mpirunj.collectives.catalogue.SimulatedSelector;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.runtime.spi.CollectiveOp;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WakeFitTest {

    private static final String BASE = "hold=9+0.000467m,end=10.5+0.000467m,cpus=2";

    @Test
    void readsTheAveragesOfEachSizeAndLeavesOutAutoAndUnknownNames() {
        List<WakeFit.Measured> rows = WakeFit.parse(List.of(
                "osu_bcast 1024 B: during the timed rounds, per rank at most: JIT 152 ms, 1 GC (2 ms)",
                "# 1024 B: 100 rounds of 10 call(s) per algorithm, each round in a shuffled order; Ratio = ...",
                "# Algorithm                             Avg Latency(us)   Avg Ratio   Ratio [90%]",
                "sequential                                       174.03       1.000   1.000",
                "auto (ran binomial-p2p)                          205.11       1.179   1.215 [1.121, 1.313]",
                "binomial-p2p                                     191.87       1.103   1.157 [1.074, 1.245]",
                "# 65536 B: 100 rounds of 10 call(s) per algorithm",
                "chain                                            433.90       1.339   1.363 [1.291, 1.440]",
                "nonsense                                         1.00       1.000   1.000"));
        assertEquals(List.of(new WakeFit.Measured("sequential", 1024, 174.03),
                new WakeFit.Measured("binomial-p2p", 1024, 191.87), new WakeFit.Measured("chain", 65536, 433.9)), rows);
    }

    /** Averages made by the model itself with wake 42.5 and 100 µs of loop around the call: the fit finds both. */
    @Test
    void recoversTheWakeAndTheCommonOffsetThatMadeTheAverages() {
        CostModel truth = ModelSpec.parse(BASE + ",wake=42.5");
        List<WakeFit.Measured> rows = new ArrayList<>();
        for (long bytes : new long[] {1024, 65536, 1 << 20}) {
            for (String name : new String[] {"binomial-p2p", "linear-p2p", "chain", "fibonacci"}) {
                var simulation = Simulator.event(AlgorithmCatalogue.lookup(CollectiveOp.BCAST, name)
                        .build(AlgorithmCatalogue.Shape.of(8, 0, bytes, truth)), truth);
                rows.add(new WakeFit.Measured(name, bytes, 100 + SimulatedSelector.meanTimeInCall(simulation, truth)));
            }
        }
        WakeFit.Fit fit = WakeFit.fit(8, BASE, rows);
        assertEquals(42.5, fit.wake(), 0);
        assertEquals(100, fit.offset(), 1e-6);
        assertEquals(0, fit.error(), 1e-12);
        // a wrong wake leaves an error
        assertEquals(true, WakeFit.evaluate(8, BASE, 20, rows).error() > 1e-4);
    }
}
