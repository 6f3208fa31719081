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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Pattern;
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

    private static void assertTimeoutReport(LauncherRun run, int np, int seconds, boolean pids) {
        assertEquals(ExitCodes.TIMEOUT, run.exitCode(), run::toString);
        assertTrue(run.err().contains("mpirun-j: the job timed out after " + seconds + " s"), run::toString);
        assertTrue(run.err().contains(np + " of " + np + " ranks still running:"), run::toString);
        for (int r = 0; r < np; r++) {
            Pattern line = Pattern.compile("mpirun-j:   rank " + r + (pids ? " \\(pid \\d+\\)" : "")
                    + ": recv\\(source=ANY_SOURCE, tag=99\\) on world for \\d+\\.\\d s, called at "
                    + Pattern.quote(Waiter.class.getName()) + "\\.main\\(Waiter\\.java:\\d+\\)");
            assertTrue(run.errLines().stream().anyMatch(l -> line.matcher(l).matches()), line + "\n" + run);
        }
        assertTrue(run.err().contains("exit status 124"), run::toString);
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void timeoutReportsEveryRanksCallAndExits124InProcessMode() {
        // The ranks must be in their call when the timeout strikes. On a busy two-core machine three JVMs
        // can take longer than any fixed timeout to start, so a run whose report finds a rank still
        // starting is tried again with a longer timeout; a report that is wrong otherwise fails at once.
        LauncherRun run = null;
        for (int seconds : new int[] {8, 20, 60}) {
            run = LauncherRun.of("-np", "3", "--timeout", Integer.toString(seconds), Waiter.class.getName());
            if (!run.err().contains("no answer (still starting")) {
                assertTimeoutReport(run, 3, seconds, true);
                return;
            }
        }
        throw new AssertionError("the ranks were still starting at every timeout tried\n" + run);
    }

    @Test
    void timeoutReportsEveryRanksCallAndExits124InThreadsMode() {
        LauncherRun run = LauncherRun.of("--threads", "-np", "4", "--timeout", "2", Waiter.class.getName());
        assertTimeoutReport(run, 4, 2, false);
        assertEquals(Set.of(), FailureDetectionTest.rankThreadsAlive(4), run::toString);
    }

    @Test
    void mpiexecTimeoutIsTheDefaultTimeout() {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("MPIEXEC_TIMEOUT", "2");
        LauncherRun run = LauncherRun.of(env, "--threads", "-np", "2", Waiter.class.getName());
        assertTimeoutReport(run, 2, 2, false);
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
