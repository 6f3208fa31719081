package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.examples.CollectivesDemo;
import io.mpirunj.examples.Hello;
import io.mpirunj.examples.Ring;
import io.mpirunj.testapps.Aborter;
import io.mpirunj.testapps.EchoArgs;
import io.mpirunj.testapps.FinallyFinish;
import io.mpirunj.testapps.NoMpi;
import io.mpirunj.testapps.ReturnsEarly;
import io.mpirunj.testapps.StaticCounter;
import io.mpirunj.testapps.Thrower;
import java.io.PrintStream;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code mpirun-j --threads}: the ranks run in this JVM; their output is captured per line. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ThreadsModeTest {
    private static final String EXAMPLES = LauncherRun.classpathOf(Hello.class);
    private static final String TESTAPPS = LauncherRun.classpathOf(EchoArgs.class);

    private static LauncherRun threads(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "--threads";
        System.arraycopy(args, 0, all, 1, args.length);
        PrintStream out = System.out;
        PrintStream err = System.err;
        LauncherRun run = LauncherRun.of(all);
        assertSame(out, System.out, "System.out restored");
        assertSame(err, System.err, "System.err restored");
        return run;
    }

    private static Set<String> set(List<String> lines) {
        return new TreeSet<>(lines);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5})
    void helloPrintsOneTaggedLinePerRank(int np) {
        LauncherRun run = threads("-np", Integer.toString(np), "--tag-output", "-cp", EXAMPLES, Hello.class.getName());
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals(np, run.outLines().size(), run::toString);
        for (int r = 0; r < np; r++) {
            String prefix = "[" + r + "] Hello from rank " + r + " of " + np + " on ";
            assertTrue(run.outLines().stream().anyMatch(l -> l.startsWith(prefix)), prefix + "\n" + run);
        }
        assertEquals("", run.err(), run::toString);
    }

    /**
     * A rank thread whose main returns early while the others wait for it in a barrier fails the job, naming it, as a
     * rank process does (it was a hang: the job finished the rank for it, and Mpi.finish waited for the others).
     */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
        "before-init    |          | rank 1 returned from main before calling Mpi.init, while other ranks called it",
        "before-init    | after-it | rank 1 returned from main before calling Mpi.init, while other ranks called it",
        "without-finish |          | rank 1's main returned without calling Mpi.finish (every rank that called "
                + "Mpi.init must call it before its main returns, as MPI_Finalize)"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aRankReturningEarlyFailsTheJobNamingIt(String when, String others, String said) {
        LauncherRun run = threads("-np", "3", "-cp", TESTAPPS, ReturnsEarly.class.getName(), "1", when,
                others == null ? "" : others);
        assertEquals(1, run.exitCode(), run::toString);
        assertTrue(run.err().contains("mpirun-j: " + said), run::toString);
        assertFalse(run.out().contains("still alive"), run::toString);
    }

    @Test
    void withoutTagOutputLinesAreUntagged() {
        LauncherRun run = threads("-np", "2", Hello.class.getName());
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals(2, run.outLines().size(), run::toString);
        assertTrue(run.outLines().stream().allMatch(l -> l.startsWith("Hello from rank ")), run::toString);
    }

    @Test
    void ringPassesTheTokenAround() {
        LauncherRun run = threads("-np", "4", "--tag-output", Ring.class.getName(), "3");
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.out().contains("[0] rank 0 received token 18 from rank 3: ring of 4 done (expected 18)"),
                run::toString);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 7})
    void collectivesDemoChecksItselfOnEveryRank(int np) {
        LauncherRun run = threads("-np", Integer.toString(np), CollectivesDemo.class.getName(), "57");
        assertEquals(0, run.exitCode(), run::toString);
        Set<String> want = IntStream.range(0, np)
                .mapToObj(r -> "rank " + r + " of " + np + ": OK (bcast, alltoall, allreduce; 57 elements per block)")
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(want, set(run.outLines()), run::toString);
    }

    @Test
    void forcedCollectivesAreUsed() {
        LauncherRun run = threads("-np", "3", "--coll", "bcast=linear-p2p,alltoall=linear",
                CollectivesDemo.class.getName(), "5");
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals(3, run.outLines().size(), run::toString);
    }

    @Test
    void argumentsReachEveryRankUntouched() {
        LauncherRun run = threads("-np", "2", EchoArgs.class.getName(), "-x", "1", "--bar", "-np", "9");
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals(set(List.of("rank 0 args -x|1|--bar|-np|9", "rank 1 args -x|1|--bar|-np|9")),
                set(run.outLines()), run::toString);
    }

    @Test
    void everyRankHasItsOwnStatics() {
        LauncherRun run = threads("-np", "4", "-cp", TESTAPPS, StaticCounter.class.getName());
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals(set(List.of("rank 0 counter 1", "rank 1 counter 1", "rank 2 counter 1", "rank 3 counter 1")),
                set(run.outLines()), run::toString);
    }

    @Test
    void aThrowingRankFailsTheJobWithItsTraceAndStopsTheOthers() {
        LauncherRun run = threads("-np", "3", "-cp", TESTAPPS, Thrower.class.getName(), "1");
        assertEquals(1, run.exitCode(), run::toString);
        assertTrue(run.err().contains("[rank 1] java.lang.IllegalStateException: boom from rank 1"), run::toString);
        assertTrue(run.err().contains("mpirun-j: rank 1 failed: java.lang.IllegalStateException: boom from rank 1 (the "
                + "job exits with status 1)"), run::toString); // the launcher's line, as with processes
        assertTrue(run.errLines().stream().filter(l -> l.contains("\tat ")).allMatch(l -> l.startsWith("[rank 1] ")),
                run::toString);
        assertFalse(run.err().contains("[rank 0]"), "consequential failures stay quiet: " + run);
    }

    /**
     * One rank throws inside {@code try (Comm world = Mpi.init(args)) { ...; Mpi.finish(); }}: its exception is the
     * job's failure, with the world's close before Mpi.finish suppressed in it, without the launcher's frames.
     */
    @Test
    void aRankLeavingTryWithResourcesByAnExceptionShowsThatException() {
        LauncherRun run = threads("-np", "3", "-cp", TESTAPPS, FinallyFinish.class.getName(), "2", "resources");
        assertEquals(1, run.exitCode(), run::toString);
        assertTrue(run.err().contains("[rank 2] java.lang.IllegalStateException: boom from rank 2"), run::toString);
        assertTrue(run.err().contains("[rank 2] \tSuppressed: io.mpirunj.MpiException: world.close() before "
                + "Mpi.finish()"), run::toString);
        assertFalse(run.err().contains("ThreadJob") || run.err().contains(".reflect."), run::toString);
        // the user's frames as a rank process shows them, without the rank class loader's name
        assertTrue(run.err().contains("[rank 2] \tat " + FinallyFinish.class.getName() + ".throwOrBarrier("),
                run::toString);
    }

    /** With --tag-output the launcher names the rank on every line; the rank's own lines do not name it again. */
    @Test
    void taggedOutputNamesTheThrowingRankOnce() {
        LauncherRun run = threads("-np", "2", "--tag-output", "-cp", TESTAPPS, Thrower.class.getName(), "1");
        assertEquals(1, run.exitCode(), run::toString);
        assertTrue(run.err().contains("[1] java.lang.IllegalStateException: boom from rank 1"), run::toString);
        assertFalse(run.err().contains("[rank 1]"), run::toString);
    }

    @Test
    void abortEndsTheJobWithItsCode() {
        LauncherRun run = threads("-np", "4", "-cp", TESTAPPS, Aborter.class.getName(), "2", "5");
        assertEquals(5, run.exitCode(), run::toString);
        assertTrue(run.err().contains("rank 2 aborted the job with exit code 5"), run::toString);
    }

    @Test
    void programsThatNeverJoinTheJobStillEndAndPartialLinesAreKept() {
        LauncherRun run = threads("-np", "2", "--tag-output", NoMpi.class.getName());
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals(set(List.of("[0] no newline at the end", "[1] no newline at the end")), set(run.outLines()),
                run::toString);
    }
}
