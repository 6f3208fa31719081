package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.examples.Hello;
import io.mpirunj.testapps.EchoArgs;
import io.mpirunj.testapps.PropDump;
import io.mpirunj.testapps.Waiter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The run options beyond the basics: -x, -J, -jar, output files and timestamps, --timeout, exit statuses. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class LauncherOptionsTest {
    @TempDir
    Path tmp;

    private static Set<String> set(List<String> lines) {
        return new TreeSet<>(lines);
    }

    /** A subcommand's parse error points at that subcommand's help, where its options are. */
    @Test
    void aSubcommandsUsageErrorNamesItsOwnHelp() {
        LauncherRun trace = LauncherRun.of("trace");
        assertEquals(2, trace.exitCode(), trace::toString);
        assertTrue(trace.err().endsWith("(see mpirun-j trace --help)\n"), trace::toString);
        LauncherRun top = LauncherRun.of("--no-such-option");
        assertEquals(2, top.exitCode(), top::toString);
        assertTrue(top.err().endsWith("(see mpirun-j --help)\n"), top::toString);
    }

    @Test
    void exportedVariablesReachEveryRankAndIdentityCannotBeOverridden() {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("MPIRUNJ_TEST_FROM_LAUNCHER", "inherited value");
        LauncherRun run = LauncherRun.of(env, "-np", "2", "-x", "MPIRUNJ_TEST_A=a=b c", "-x",
                "MPIRUNJ_TEST_FROM_LAUNCHER", "-x", "OMPI_COMM_WORLD_RANK=7", PropDump.class.getName(),
                "env:MPIRUNJ_TEST_A", "env:MPIRUNJ_TEST_FROM_LAUNCHER", "env:OMPI_COMM_WORLD_RANK");
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals(set(List.of(
                "rank 0 env MPIRUNJ_TEST_A=a=b c env MPIRUNJ_TEST_FROM_LAUNCHER=inherited value env OMPI_COMM_WORLD_RANK=0",
                "rank 1 env MPIRUNJ_TEST_A=a=b c env MPIRUNJ_TEST_FROM_LAUNCHER=inherited value env OMPI_COMM_WORLD_RANK=1")),
                set(run.outLines()), run::toString);
    }

    @Test
    void jvmArgsReachEveryRankJvm() {
        LauncherRun run = LauncherRun.of("-np", "2", "-J", "-Dmpirunj.test.a=1", "--jvm-arg=-Dmpirunj.test.b=two",
                "-J-Dmpirunj.test.c=3", PropDump.class.getName(), "mpirunj.test.a", "mpirunj.test.b", "mpirunj.test.c");
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals(set(List.of(
                "rank 0 prop mpirunj.test.a=1 prop mpirunj.test.b=two prop mpirunj.test.c=3",
                "rank 1 prop mpirunj.test.a=1 prop mpirunj.test.b=two prop mpirunj.test.c=3")),
                set(run.outLines()), run::toString);
    }

    private Path jarWithMain(String mainClass) throws IOException {
        Path jar = tmp.resolve("app.jar");
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass);
        try (OutputStream out = new JarOutputStream(Files.newOutputStream(jar), m)) {
            // the classes themselves are on the ranks' classpath already (the test classpath)
        }
        return jar;
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void jarRunsTheManifestsMainClassWithEveryPositionalAsAnArgument(boolean threads) throws Exception {
        Path jar = jarWithMain(EchoArgs.class.getName());
        LauncherRun run = threads
                ? LauncherRun.of("--threads", "-np", "2", "-jar", jar.toString(), "first", "-x", "2")
                : LauncherRun.of("-np", "2", "-jar", jar.toString(), "first", "-x", "2");
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals(set(List.of("rank 0 args first|-x|2", "rank 1 args first|-x|2")), set(run.outLines()),
                run::toString);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void outputFilenameWritesOneFilePerRank(boolean threads) throws Exception {
        Path dir = tmp.resolve("out");
        LauncherRun run = threads
                ? LauncherRun.of("--threads", "-np", "3", "--output-filename", dir.toString(), Hello.class.getName())
                : LauncherRun.of("-np", "3", "--output-filename", dir.toString(), Hello.class.getName());
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals("", run.out(), "nothing on the console: " + run);
        for (int r = 0; r < 3; r++) {
            List<String> lines = Files.readAllLines(RankOutput.fileOf(dir, r));
            assertEquals(1, lines.size(), lines::toString);
            assertTrue(lines.get(0).startsWith("Hello from rank " + r + " of 3 on "), lines::toString);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void timestampAndTagPrefixEveryLine(boolean threads) {
        LauncherRun run = threads
                ? LauncherRun.of("--threads", "-np", "2", "--timestamp-output", "--tag-output", Hello.class.getName())
                : LauncherRun.of("-np", "2", "--timestamp-output", "--tag-output", Hello.class.getName());
        assertEquals(0, run.exitCode(), run::toString);
        Pattern p = Pattern.compile("\\[\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3}] \\[(\\d)] Hello from rank \\1 of 2 on .*");
        assertEquals(2, run.outLines().size(), run::toString);
        assertTrue(run.outLines().stream().allMatch(l -> p.matcher(l).matches()), run::toString);
    }

    @Test
    void oversubscribeIsAccepted() {
        LauncherRun run = LauncherRun.of("-np", "3", "--oversubscribe", "--threads", Hello.class.getName());
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals(3, run.outLines().size(), run::toString);
    }

    // ---- --timeout ---------------------------------------------------------------------------------

    /** The report line of rank {@code r} in its Waiter's receive. */
    private static Pattern waiterLine(int r, boolean pids) {
        return Pattern.compile("mpirun-j:   rank " + r + (pids ? " \\(pid \\d+\\)" : "")
                + ": recv\\(source=ANY_SOURCE, tag=99\\) on world for \\d+\\.\\d s, called at "
                + Pattern.quote(Waiter.class.getName()) + "\\.main\\(Waiter\\.java:\\d+\\)");
    }

    /**
     * Runs a {@link Waiter} job (its ranks block for ever, so only the timeout can end it) with each time limit of
     * {@code seconds} in turn until the report finds every rank in its receive, and checks that run's report. How
     * long {@code np} JVMs or rank threads take to get there on a busy machine has no bound, so a run whose report
     * finds some rank elsewhere (still starting, in Mpi.init or the barrier before the receive, too busy to answer)
     * is tried again with the next, longer limit; every run must still have timed out, said so and exited 124.
     */
    private static void assertTimeoutReport(IntFunction<LauncherRun> waiterJob, int np, boolean pids, int... seconds) {
        LauncherRun run = null;
        for (int limit : seconds) {
            run = waiterJob.apply(limit);
            assertEquals(ExitCodes.TIMEOUT, run.exitCode(), run::toString);
            assertTrue(run.err().contains("mpirun-j: the job timed out after " + limit + " s"), run::toString);
            assertTrue(run.err().contains("mpirun-j: stopping the job; exit status 124"), run::toString);
            LauncherRun ran = run;
            if (IntStream.range(0, np).allMatch(r -> ran.errLines().stream()
                    .anyMatch(l -> waiterLine(r, pids).matcher(l).matches()))) {
                assertTrue(run.err().contains(np + " of " + np + " ranks still running:"), run::toString);
                return;
            }
        }
        throw new AssertionError("at no time limit tried (" + Arrays.toString(seconds) + " s) were all " + np
                + " ranks in their receive; the last report:\n" + run);
    }

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void timeoutReportsEveryRanksCallAndExits124InProcessMode() {
        assertTimeoutReport(seconds -> LauncherRun.of("-np", "3", "--timeout", Integer.toString(seconds),
                Waiter.class.getName()), 3, true, 8, 30, 90);
    }

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void timeoutReportsEveryRanksCallAndExits124InThreadsMode() throws InterruptedException {
        assertTimeoutReport(seconds -> LauncherRun.of("--threads", "-np", "4", "--timeout", Integer.toString(seconds),
                Waiter.class.getName()), 4, false, 2, 8, 30, 90);
        FailureDetectionTest.awaitNoRankThreads(4);
    }

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void mpiexecTimeoutIsTheDefaultTimeout() {
        assertTimeoutReport(seconds -> {
            Map<String, String> env = new HashMap<>(System.getenv());
            env.put("MPIEXEC_TIMEOUT", Integer.toString(seconds));
            return LauncherRun.of(env, "--threads", "-np", "2", Waiter.class.getName());
        }, 2, false, 2, 8, 30, 90);
    }

    @Test
    void aJobThatEndsInTimeIsNotAffectedByTheTimeout() {
        LauncherRun run = LauncherRun.of("-np", "2", "--timeout", "60", Hello.class.getName());
        assertEquals(0, run.exitCode(), run::toString);
        assertFalse(run.err().contains("timed out"), run::toString);
    }

    // ---- exit statuses ----------------------------------------------------------------------------

    @Test
    void exitStatusesTheOsCannotCarryStayFailures() {
        assertEquals(0, ExitCodes.ofCode(0));
        assertEquals(5, ExitCodes.ofCode(5));
        assertEquals(255, ExitCodes.ofCode(-1));
        assertEquals(1, ExitCodes.ofCode(256));
        assertEquals(44, ExitCodes.ofCode(300));
    }

    @Test
    void helpDocumentsTheExitStatusesAndTheNewOptions() {
        LauncherRun run = LauncherRun.of("--help");
        assertEquals(0, run.exitCode(), run::toString);
        for (String s : List.of("Exit status:", "124", "128+S", "-x", "-jar", "--jvm-arg", "--timeout",
                "--output-filename", "--timestamp-output", "--oversubscribe", "MPIEXEC_TIMEOUT", "OMPI_COMM_WORLD_RANK")) {
            assertTrue(run.out().contains(s), s + "\n" + run);
        }
    }
}
