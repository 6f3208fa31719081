package io.mpirunj.launcher.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.benchmarks.osu.OsuBenchmark;
import io.mpirunj.benchmarks.osu.OsuTable;
import io.mpirunj.benchmarks.sweep.Sweep;
import io.mpirunj.benchmarks.sweep.SweepPoint;
import io.mpirunj.runtime.spi.CollRules;
import io.mpirunj.runtime.spi.CollectiveOp;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code bench --write-rules}: the fastest algorithm per rank count and size, as contiguous rules. */
class RulesFromSweepTest {

    private static SweepPoint p(String runtime, String algorithm, int np, long size, double us) {
        return new SweepPoint(runtime, algorithm, np, OsuTable.Row.of(size, us));
    }

    private static final List<SweepPoint> SWEEP = List.of(
            p(Sweep.MPIRUN_J, "linear-p2p", 4, 1, 5.0), p(Sweep.MPIRUN_J, "binomial", 4, 1, 6.0),
            p(Sweep.MPIRUN_J, "linear-p2p", 4, 2, 5.5), p(Sweep.MPIRUN_J, "binomial", 4, 2, 6.0),
            p(Sweep.MPIRUN_J, "linear-p2p", 4, 4, 9.0), p(Sweep.MPIRUN_J, "binomial", 4, 4, 7.0),
            p(Sweep.MPIRUN_J, "linear-p2p", 8, 1, 9.0), p(Sweep.MPIRUN_J, "binomial", 8, 1, 8.0),
            p(Sweep.MPIRUN_J, "linear-p2p", 8, 2, 9.0), p(Sweep.MPIRUN_J, "binomial", 8, 2, 8.0),
            p(Sweep.MPIRUN_J, "linear-p2p", 8, 4, 9.0), p(Sweep.MPIRUN_J, "binomial", 8, 4, 8.0),
            p("openmpi", "openmpi", 4, 1, 1.0)); // other runtimes never win a rule

    @Test
    void neighbouringSizesWithOneWinnerBecomeOneRuleCoveringEverySize() {
        List<CollRules.RuleJson> rules = RulesFromSweep.rules("bcast", SWEEP, false);
        assertEquals(3, rules.size(), rules.toString());
        assertRule(rules.get(0), null, 4, null, 2L, "linear-p2p");
        assertRule(rules.get(1), null, 4, 3L, null, "binomial");
        assertRule(rules.get(2), 5, null, null, null, "binomial");
        assertEquals("measured at np 4: 1 B 5.0 us (next binomial 6.0 us); 2 B 5.5 us (next binomial 6.0 us)",
                rules.get(0).note());
    }

    /** The table shows means without -f: the rule goes by them, though a collective's rows carry medians too. */
    @Test
    void theMeanDecidesWithoutDashFAndTheMedianWithIt() {
        // one slow outlier: binomial's mean is the higher, its median the lower
        List<SweepPoint> sweep = List.of(
                new SweepPoint(Sweep.MPIRUN_J, "binomial", 2, new OsuTable.Row(4, 263.7, 40, 9000, 50, 78.6, 9000, 0)),
                new SweepPoint(Sweep.MPIRUN_J, "linear-p2p", 2, new OsuTable.Row(4, 130.0, 40, 200, 50, 100.0, 200, 0)));
        assertEquals("linear-p2p", RulesFromSweep.rules("bcast", sweep, false).get(0).algorithm());
        assertEquals("measured at np 2: 4 B 130.0 us (next binomial 263.7 us)",
                RulesFromSweep.rules("bcast", sweep, false).get(0).note());
        assertEquals("binomial", RulesFromSweep.rules("bcast", sweep, true).get(0).algorithm());
    }

    private static void assertRule(CollRules.RuleJson r, Integer minRanks, Integer maxRanks, Long minBytes,
            Long maxBytes, String algorithm) {
        assertEquals(new CollRules.RuleJson("bcast", minRanks, maxRanks, minBytes, maxBytes, algorithm, null, r.note()), r);
    }

    @Test
    void theFileReadsBackAndKeepsOtherOperations() {
        String first = RulesFromSweep.file(OsuBenchmark.byCommand("osu_alltoall"), List.of(4), true, List.of("-m", "1:4"),
                List.of("pairwise", "bruck"), List.of(p(Sweep.MPIRUN_J, "bruck", 4, 1, 3.0),
                        p(Sweep.MPIRUN_J, "pairwise", 4, 1, 4.0)), null, null);
        String both = RulesFromSweep.file(OsuBenchmark.byCommand("osu_bcast"), List.of(4, 8), false, List.of(),
                List.of("linear-p2p", "binomial"), SWEEP, first, "rules.json");
        CollRules rules = CollRules.parse(both, "rules.json");
        assertEquals("bruck", rules.match(CollectiveOp.ALLTOALL, 4, 1).algorithm());
        assertEquals("linear-p2p", rules.match(CollectiveOp.BCAST, 3, 2).algorithm());
        assertEquals("binomial", rules.match(CollectiveOp.BCAST, 4, 3).algorithm());
        assertEquals("binomial", rules.match(CollectiveOp.BCAST, 64, 1 << 20).algorithm());
        assertTrue(both.contains("\"alltoall\" : {") && both.contains("\"bcast\" : {"), both);
        assertTrue(both.contains("\"loadAverage1min\""), both);
    }
}
