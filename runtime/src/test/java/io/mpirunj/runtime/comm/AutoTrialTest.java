package io.mpirunj.runtime.comm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.runtime.spi.Selection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** auto's live trial on one rank: which candidate each call runs, what it keeps, and when it tries again. */
class AutoTrialTest {

    private static Selection candidate(String name) {
        return new Selection(new NamedBcast(name), Selection.Source.AUTO, 1.0, "model time");
    }

    private static final List<Selection> SHORTLIST = List.of(candidate("flat"), candidate("binomial"),
            candidate("chain"));

    /** Runs calls until a trial ends, each taking what {@code nanos} says for its candidate; the names run, in order. */
    private static List<String> runTrial(AutoTrial t, java.util.function.ToLongFunction<String> nanos) {
        List<String> ran = new ArrayList<>();
        while (true) {
            Selection s = t.next();
            assertEquals(Selection.Source.AUTO_TRIAL, s.source());
            ran.add(s.algorithm().name());
            if (t.record(nanos.applyAsLong(s.algorithm().name()))) {
                return ran;
            }
        }
    }

    @Test
    void triesTheShortlistInBlocksAndKeepsTheLeastSummedMean() {
        AutoTrial t = new AutoTrial(SHORTLIST, 2);
        assertEquals("flat", t.current().algorithm().name()); // the model's pick until a trial has ended
        int[] binomialCalls = {0};
        // binomial is slow in its first, untimed call (cold code) and once more later (preempted), fast otherwise
        List<String> ran = runTrial(t, name -> switch (name) {
            case "flat" -> 300;
            case "binomial" -> binomialCalls[0]++ < 2 ? 1_000_000 : 200;
            default -> 250;
        });
        // a block each (an untimed call and two timed ones), then again in the reverse order
        assertEquals(List.of("flat", "flat", "flat", "binomial", "binomial", "binomial", "chain", "chain", "chain",
                "chain", "chain", "chain", "binomial", "binomial", "binomial", "flat", "flat", "flat"), ran);
        assertArrayEquals(new long[] {300, 200, 250}, t.means()); // the slowest timed call is left out
        // another rank measured binomial slower: the sums decide, the same on every rank
        t.decide(new long[] {300 + 290, 200 + 500, 250 + 260}, true);
        assertEquals("chain", t.next().algorithm().name());
        assertEquals(Selection.Source.AUTO_MEASURED, t.next().source());
        assertEquals(1, t.trialsDone());
    }

    @Test
    void triesAgainAfterTwiceTheCallsAmongTheCloseOnesAndStopsAfterTheFourth() {
        List<Selection> four = List.of(candidate("flat"), candidate("binomial"), candidate("chain"), candidate("ttcc"));
        AutoTrial t = new AutoTrial(four, 1);
        assertEquals(16, runTrial(t, name -> 1).size()); // four candidates, two blocks of an untimed and a timed call
        // the first trial (cold code) rules out only what was twice as slow: ttcc (3x)
        t.decide(new long[] {130, 100, 125, 300}, true);
        assertEquals("binomial", t.current().algorithm().name());
        assertEquals(List.of("flat", "binomial", "chain"), t.candidates().stream().map(c -> c.algorithm().name())
                .toList());
        // the next starts at call 2 x 16 = 32: until then the choice runs, untimed by the trial
        for (int call = 16; call < 32; call++) {
            assertEquals("binomial", t.next().algorithm().name());
            assertFalse(t.record(1));
        }
        assertEquals(18, runTrial(t, name -> 1).size()); // blocks twice as long: an untimed call and two timed
        // on warm code: chain within 25 % of binomial (the fastest) is tried again; flat, 1.3x, is not
        t.decide(new long[] {130, 100, 125}, true);
        assertEquals(List.of("binomial", "chain"), t.candidates().stream().map(c -> c.algorithm().name()).toList());
        for (int call = 50; call < 100; call++) {
            assertFalse(t.record(1));
        }
        List<String> five = java.util.Collections.nCopies(5, "binomial");
        List<String> chains = java.util.Collections.nCopies(5, "chain");
        List<String> expected = new ArrayList<>(five);
        expected.addAll(chains);
        expected.addAll(chains);
        expected.addAll(five);
        assertEquals(expected, runTrial(t, name -> 1)); // blocks of 5, in order and in the reverse order
        t.decide(new long[] {200, 100}, true); // the two fastest stay, however far apart
        assertEquals("chain", t.current().algorithm().name());
        assertEquals(2, t.candidates().size());
        for (int call = 120; call < 240; call++) {
            assertFalse(t.record(1));
        }
        assertEquals(36, runTrial(t, name -> 1).size());
        t.decide(new long[] {2, 1}, true);
        assertEquals(AutoTrial.TRIALS, t.trialsDone());
        for (int call = 0; call < 100_000; call++) { // the fourth was the last
            assertEquals("chain", t.next().algorithm().name());
            assertEquals(Selection.Source.AUTO_MEASURED, t.next().source());
            assertFalse(t.record(1));
        }
    }

    /** The choice's calls until the next trial starts. */
    private static void untilTheNextTrial(AutoTrial t) {
        while (t.next().source() != Selection.Source.AUTO_TRIAL) {
            assertFalse(t.record(1));
        }
    }

    @Test
    void oneDisturbedTrialDoesNotOverturnTheWarmOnesBeforeIt() {
        AutoTrial t = new AutoTrial(List.of(candidate("flat"), candidate("binomial")), 1);
        runTrial(t, name -> 1);
        t.decide(new long[] {500, 100}, true); // cold: binomial, on this trial's sums alone
        assertEquals("binomial", t.current().algorithm().name());
        untilTheNextTrial(t);
        runTrial(t, name -> 1);
        t.decide(new long[] {741, 955}, true); // warm, 2 timed calls a block: flat
        assertEquals("flat", t.current().algorithm().name());
        untilTheNextTrial(t);
        runTrial(t, name -> 1);
        t.decide(new long[] {998, 1110}, true); // 4 a block: flat
        untilTheNextTrial(t);
        runTrial(t, name -> 1);
        t.decide(new long[] {976, 961}, true); // 8 a block: binomial by 1.5 %, but flat over the three warm trials
        assertEquals("flat", t.current().algorithm().name());
        assertFalse(t.learning());
    }

    @Test
    void aTrialWhileTheJvmsCompiledDecidesOnlyUntilAQuietOneAndIsMadeAgain() {
        AutoTrial t = new AutoTrial(List.of(candidate("flat"), candidate("binomial"), candidate("chain")), 1);
        runTrial(t, name -> 1);
        t.decide(new long[] {100, 120, 400}, true); // cold: flat; chain, 4x, is left out
        untilTheNextTrial(t);
        runTrial(t, name -> 1);
        t.decide(new long[] {130, 100}, false); // busy: binomial for now, nothing weighed, both kept (within 2x)
        assertEquals("binomial", t.current().algorithm().name());
        assertEquals(List.of("flat", "binomial"), t.candidates().stream().map(c -> c.algorithm().name()).toList());
        assertEquals(0, t.warmTrials());
        untilTheNextTrial(t);
        runTrial(t, name -> 1);
        t.decide(new long[] {100, 110}, true); // the first quiet one: flat
        assertEquals("flat", t.current().algorithm().name());
        untilTheNextTrial(t);
        runTrial(t, name -> 1);
        t.decide(new long[] {100, 10}, false); // busy after a quiet one: changes nothing
        assertEquals("flat", t.current().algorithm().name());
        assertEquals(1, t.warmTrials());
        untilTheNextTrial(t);
        runTrial(t, name -> 1);
        t.decide(new long[] {100, 105}, true);
        assertTrue(t.learning()); // five made, two quiet: one more
        untilTheNextTrial(t);
        runTrial(t, name -> 1);
        t.decide(new long[] {100, 96}, true); // the weighed sums still favour flat
        assertEquals("flat", t.current().algorithm().name());
        assertFalse(t.learning());
        assertEquals(AutoTrial.MAX_TRIALS, t.trialsDone());
    }

    @Test
    void busyTrialsAreWeighedTogetherWhenNoneIsQuietAndStopAtTheBound() {
        AutoTrial t = new AutoTrial(List.of(candidate("flat"), candidate("binomial")), 1);
        for (int trial = 0; trial < AutoTrial.MAX_TRIALS; trial++) {
            assertTrue(t.learning());
            untilTheNextTrial(t);
            runTrial(t, name -> 1);
            // binomial in the busy trials 2-5, flat in the last: their weighed sums still favour binomial
            t.decide(trial == AutoTrial.MAX_TRIALS - 1 ? new long[] {100, 200} : new long[] {200, 100}, trial == 0);
        }
        assertFalse(t.learning());
        assertEquals("binomial", t.current().algorithm().name());
        assertEquals(Selection.Source.AUTO_MEASURED, t.next().source());
    }

    @Test
    void theRanksAddWhatTheirJvmsSpentCompilingAndTheTrialSaysWhetherItWasQuiet() {
        long[] busy = {0};
        AutoTrial t = new AutoTrial(List.of(candidate("flat"), candidate("binomial")), 1, () -> busy[0]);
        runTrial(t, name -> {
            busy[0] += 1_000; // a second of compiling per call: far more than the trial's time
            return name.equals("flat") ? 10 : 20;
        });
        long[] measured = t.measured();
        // two means, the busy and the trial's microseconds, and 1 (summed over the ranks: their number)
        assertEquals(5, measured.length);
        assertArrayEquals(new long[] {10, 20}, Arrays.copyOf(measured, 2));
        assertEquals(7_000_000, measured[2]); // the seven calls after the trial's first, in microseconds
        assertEquals(1, measured[4]);
        assertFalse(t.decide(measured)); // one rank alone: its own sums
        assertTrue(t.lastMeasured().startsWith("mean us per call (flat 0.0, binomial 0.0); JIT+GC 7000 ms of "),
                t.lastMeasured());
        assertTrue(t.lastMeasured().endsWith(" ms (first)"), t.lastMeasured());
        assertTrue(AutoTrial.quiet(5_000, 100_000, 0));
        assertFalse(AutoTrial.quiet(5_001, 100_000, 0));
        // 8 ranks, 80 ms of trial in all: 5 % of it (4 ms) plus a millisecond a rank (the readings' grain)
        assertTrue(AutoTrial.quiet(12_000, 80_000, 8));
        assertFalse(AutoTrial.quiet(12_001, 80_000, 8));
    }

    @Test
    void aRunOfSlowCallsInOneBlockWeighsLittle() {
        AutoTrial t = new AutoTrial(SHORTLIST, 4); // 8 timed calls per candidate
        int[] flatCalls = {0};
        // flat's first block: its untimed call, then 2 of 4 timed calls stretched (another rank's JVM compiling)
        runTrial(t, name -> switch (name) {
            case "flat" -> {
                int i = flatCalls[0]++;
                yield i == 1 || i == 2 ? 900 : 100;
            }
            case "binomial" -> 120;
            default -> 150;
        });
        assertArrayEquals(new long[] {100, 120, 150}, t.means()); // the slowest quarter (2 of 8) left out
    }

    @Test
    void tiesGoToTheModelsOrder() {
        AutoTrial t = new AutoTrial(SHORTLIST, 1);
        runTrial(t, name -> 5);
        t.decide(new long[] {7, 5, 5}, true);
        assertEquals("binomial", t.current().algorithm().name());
    }

    @Test
    void needsTwoCandidatesAndARound() {
        assertThrows(IllegalArgumentException.class, () -> new AutoTrial(SHORTLIST.subList(0, 1), 3));
        assertThrows(IllegalArgumentException.class, () -> new AutoTrial(SHORTLIST, 0));
        assertTrue(new AutoTrial(SHORTLIST, 1).next().algorithm().name().equals("flat"));
    }
}
