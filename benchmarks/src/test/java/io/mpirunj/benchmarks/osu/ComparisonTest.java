package io.mpirunj.benchmarks.osu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.collectives.runner.ModelProvider;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.runtime.spi.CollectiveOp;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The statistics of {@code bench --interleave}: labels, paired and held-out ratios, pooled schedules, the table. */
class ComparisonTest {

    private static final List<String> BCASTS = List.of("auto", "binomial-p2p", "linear-p2p", "sequential", "chain",
            "binomial", "binary-split", "opt-tree", "fibonacci", "chain-pipelined", "binomial-segmented",
            "binomial-p2p#2");

    @Test
    void aNameListedAgainIsASecondCopy() {
        assertEquals(List.of("auto", "chain", "chain#2", "auto#2", "chain#3"),
                Comparison.labels(List.of("auto", "chain", "chain", "auto", "chain")));
        assertEquals("chain", Comparison.name("chain#3"));
        assertEquals("chain", Comparison.name("chain"));
    }

    @Test
    void aShuffleIsAPermutationDecidedByTheSeed() {
        int[] a = Comparison.shuffled(11, new SplittableRandom(7));
        assertArrayEquals(a, Comparison.shuffled(11, new SplittableRandom(7)), "every rank draws the same order");
        assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, Arrays.stream(a).sorted().toArray());
    }

    @Test
    void aDriftThatHitsEveryAlgorithmAlikeCancelsInThePairedRatio() {
        // b is always 1.25x a; the machine slows down tenfold over the run
        double[] a = {10, 20, 40, 80, 100, 100};
        double[] b = Arrays.stream(a).map(x -> 1.25 * x).toArray();
        Comparison c = new Comparison(List.of("a", "b"), new double[][] {a, b}, new int[] {0, 1});
        assertEquals(0, c.fastest(new int[] {0, 1, 2, 3, 4, 5}));
        Comparison.Estimate r = c.ratio(1, 0);
        assertEquals(1.25, r.value(), 1e-12);
        assertEquals(1.25, r.low(), 1e-12);
        assertEquals(1.25, r.high(), 1e-12);
        assertEquals(1 / 1.25, c.ratio(0, 1).value(), 1e-12, "a/b is the inverse of b/a");
        assertEquals(58.333333333333336, c.average(0), 1e-9, "the average over rounds: OSU's over all calls");
    }

    @Test
    void thePairedRatioIsTheGeometricMeanOfTheRoundsRatiosWithAnIntervalAroundIt() {
        double[] a = {100, 100, 100, 100};
        double[] b = {100, 200, 50, 400};
        Comparison c = new Comparison(List.of("a", "b"), new double[][] {a, b}, new int[] {0, 1});
        Comparison.Estimate r = c.ratio(1, 0);
        assertEquals(Math.pow(1 * 2 * 0.5 * 4, 0.25), r.value(), 1e-12);
        assertTrue(r.low() <= r.value() && r.value() <= r.high());
        assertTrue(r.low() >= 0.5 && r.high() <= 4, r.toString());
        assertEquals(r, c.ratio(1, 0), "the bootstrap has a fixed seed: the same data, the same interval");
    }

    @Test
    void heldOutChoosesTheFastestOnEvenRoundsAndMeasuresOnOddOnes() {
        // "lucky" is fastest on the even rounds only; "steady" on the odd ones
        double[] auto = {100, 100, 100, 100};
        double[] lucky = {50, 200, 50, 200};
        double[] steady = {90, 90, 90, 90};
        Comparison c = new Comparison(List.of("auto", "lucky", "steady"), new double[][] {auto, lucky, steady},
                new int[] {0, 1, 2});
        assertEquals("lucky", c.heldOutFastest());
        assertEquals(0.5, c.heldOut(0).value(), 1e-12, "auto / lucky on the odd rounds");
        assertEquals(2, c.fastest(new int[] {0, 1, 2, 3}), "over all rounds steady is the fastest forced");
        assertThrows(IllegalArgumentException.class,
                () -> new Comparison(List.of("a"), new double[][] {{1}, {2}}, new int[] {0}));
    }

    @Test
    void namesThatRunOneSchedulePoolAsTheGeometricMeanPerRound() {
        double[] auto = {10, 10};
        double[] x = {8, 32};
        double[] xCopy = {32, 8};
        double[] y = {20, 20};
        Comparison c = new Comparison(List.of("auto", "x", "x#2", "y"), new double[][] {auto, x, xCopy, y},
                new int[] {0, 1, 1, 3});
        assertTrue(c.hasSharedSchedules());
        assertEquals(List.of("x = x#2", "y"), c.scheduleNames());
        assertArrayEquals(new double[] {16, 16}, c.pooled()[0], 1e-12);
        assertEquals("x = x#2", c.heldOutFastestSchedule());
        assertEquals(10.0 / 16, c.heldOutSchedule(0).value(), 1e-12);
        assertFalse(new Comparison(List.of("auto", "x", "y"), new double[][] {auto, x, y}, new int[] {0, 1, 2})
                .hasSharedSchedules());
    }

    @Test
    void theTableListsFastestFirstWithAutosPickAndVerdicts() {
        Comparison c = new Comparison(List.of("auto", "b", "b#2"), new double[][] {{11, 11}, {10, 10}, {12, 12}},
                new int[] {0, 1, 1});
        String t = c.table(1024, 10, Arrays.asList("b", null, null));
        String[] lines = t.strip().split("\\R");
        assertTrue(lines[0].startsWith("# 1024 B: 2 rounds of 10 call(s) per algorithm"), lines[0]);
        assertTrue(lines[2].startsWith("b ") && lines[2].endsWith("10.00       1.000   1.000"), lines[2]);
        assertTrue(lines[3].startsWith("auto (ran b) ") && lines[3].contains("1.100 [1.100, 1.100]"), lines[3]);
        assertTrue(lines[4].startsWith("b#2 ") && lines[4].contains("1.200"), lines[4]);
        assertTrue(t.contains("# auto / fastest, held out (b chosen on even rounds, ratio on odd): 1.100"), t);
        assertTrue(t.contains("# one schedule (the runner sends the same messages in the same order): b = b#2"), t);
    }

    @Test
    void onTheTcpModelOfEightRanksOnTwoCoresTheTreesAreOneBinomialSchedule() {
        int[] group = Comparison.scheduleGroups(CollectiveOp.BCAST, BCASTS, 8, 1024,
                ModelSpec.parse(ModelProvider.TCP_SPEC + ",cpus=2"));
        // auto alone; binomial-p2p = binomial = binary-split = opt-tree = binomial-segmented = its copy; the flat
        // trees together; chain = chain-pipelined (one segment); fibonacci alone
        assertArrayEquals(new int[] {0, 1, 2, 2, 4, 1, 1, 1, 8, 4, 1, 1}, group);
    }

    @Test
    void onTheIbmSpModelOptTreeIsATreeOfItsOwn() {
        int[] group = Comparison.scheduleGroups(CollectiveOp.BCAST, BCASTS, 8, 1024,
                ModelSpec.parse("hold=20+0.02m,end=55+0.07m"));
        assertEquals(7, group[7]);
        assertNotEquals(group[1], group[7]);
    }
}
