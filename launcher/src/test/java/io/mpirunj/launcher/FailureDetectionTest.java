package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.testapps.Sleeper;
import io.mpirunj.testapps.Victim;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * "A failure is never a hang", end to end: kill -9 of a rank process while the others are blocked
 * in a broadcast, an all-to-all or a receive from ANY_SOURCE; a rank thread dying likewise; and a
 * launcher killed under its ranks. Each checks the exit status, that the output names the dead rank,
 * that every survivor's pending call failed naming it, and that no rank process or thread survives.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class FailureDetectionTest {
    private static final Pattern PID = Pattern.compile("rank (\\d+) pid (\\d+)");
    /** The acceptance limit: from the kill to the launcher's exit. */
    private static final long LAUNCHER_EXIT_LIMIT_MS = 10_000;

    @BeforeAll
    static void longerStopGraceSoSurvivorsCanReport() {
        // survivors print what they caught before the launcher stops them; give them time on a busy machine
        System.setProperty(ProcessJob.STOP_GRACE_MS_PROP, "6000"); // within the 10 s limit, with room for the kill
    }

    @AfterAll
    static void restore() {
        System.clearProperty(ProcessJob.STOP_GRACE_MS_PROP);
    }

    static Stream<Arguments> cases() {
        return Stream.of("bcast", "alltoall", "recv-any")
                .flatMap(op -> Stream.of(4, 8).map(np -> Arguments.of(op, np)));
    }

    @ParameterizedTest(name = "kill -9 during {0}, np={1}")
    @MethodSource("cases")
    void killingARankProcessFailsTheJobFastAndLeavesNoProcess(String op, int np) throws Exception {
        int victim = np / 2 + 1; // a rank in the middle of any tree
        LauncherRun.Running job = LauncherRun.start("-np", Integer.toString(np), Victim.class.getName(), op,
                Integer.toString(victim), "sleep");
        List<MatchResult> pids = job.awaitOut(PID, np, 60_000);
        job.awaitOut(Pattern.compile("victim ready"), 1, 30_000);
        job.awaitOut(Pattern.compile("rank \\d+ enters " + op), np - 1, 30_000);
        long victimPid = pids.stream().filter(m -> m.group(1).equals(Integer.toString(victim)))
                .mapToLong(m -> Long.parseLong(m.group(2))).findFirst().orElseThrow();
        long killedNs = System.nanoTime();
        assertTrue(ProcessHandle.of(victimPid).map(ProcessHandle::destroyForcibly).orElse(false), "killed the victim");

        LauncherRun run = job.done().get(LAUNCHER_EXIT_LIMIT_MS, TimeUnit.MILLISECONDS);
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedNs);
        assertTrue(tookMs <= LAUNCHER_EXIT_LIMIT_MS, "launcher exited " + tookMs + " ms after the kill");
        assertEquals(128 + 9, run.exitCode(), run::toString);
        assertTrue(run.err().contains("rank " + victim + " exited with status 137 (killed by signal 9, SIGKILL)"),
                run::toString);
        for (int r = 0; r < np; r++) {
            if (r != victim) {
                String caught = "rank " + r + " caught RankFailedException naming rank " + victim + ": ";
                assertTrue(run.out().contains(caught), caught + "\n" + run);
            }
        }
        assertFalse(run.out().contains("without the victim"), run::toString);
        for (MatchResult m : pids) {
            long pid = Long.parseLong(m.group(2));
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
                    "rank " + m.group(1) + " (pid " + pid + ") survived the job\n" + run);
        }
    }

    @ParameterizedTest(name = "a rank thread dies during {0}, np={1}")
    @MethodSource("cases")
    void aDyingRankThreadFailsTheOthersAndLeavesNoThread(String op, int np) {
        int victim = np / 2 + 1;
        LauncherRun run = LauncherRun.of("--threads", "-np", Integer.toString(np), Victim.class.getName(), op,
                Integer.toString(victim), "throw");
        assertEquals(1, run.exitCode(), run::toString);
        assertTrue(run.err().contains("[rank " + victim + "] java.lang.IllegalStateException: victim rank " + victim
                + " fails on purpose"), run::toString);
        for (int r = 0; r < np; r++) {
            if (r != victim) {
                String caught = "rank " + r + " caught RankFailedException naming rank " + victim + ": ";
                assertTrue(run.out().contains(caught), caught + "\n" + run);
            }
        }
        assertEquals(Set.of(), rankThreadsAlive(np), run::toString);
    }

    /** Names of live threads called {@code rank-R} (R < np): the rank threads of a threads-mode job. */
    static Set<String> rankThreadsAlive(int np) {
        Set<String> names = Stream.iterate(0, r -> r < np, r -> r + 1).map(r -> "rank-" + r).collect(Collectors.toSet());
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(names::contains).collect(Collectors.toSet());
    }

    @ParameterizedTest(name = "launcher killed, ranks {0}")
    @ValueSource(strings = {"mpi", "plain"})
    void ranksOfAKilledLauncherExitByThemselves(String mode) throws Exception {
        String java = ProcessJob.javaExecutable();
        List<String> cmd = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                MpirunJ.class.getName(), "-np", "2", Sleeper.class.getName(), mode));
        Process launcher = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        List<Long> pids = new ArrayList<>();
        StringBuilder seen = new StringBuilder();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(launcher.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while (pids.size() < 2 && (line = in.readLine()) != null) {
                seen.append(line).append('\n');
                var m = PID.matcher(line);
                if (m.find()) {
                    pids.add(Long.parseLong(m.group(2)));
                }
            }
            assertEquals(2, pids.size(), "both ranks started:\n" + seen);
            for (long pid : pids) {
                assertTrue(ProcessHandle.of(pid).isPresent(), "rank pid " + pid + " is alive");
            }
            launcher.destroyForcibly(); // kill -9: no shutdown hook runs
            assertTrue(launcher.waitFor(10, TimeUnit.SECONDS));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(8);
            for (long pid : pids) {
                ProcessHandle h = ProcessHandle.of(pid).orElse(null);
                if (h != null) {
                    try { // the rank's exit is the event; 8 s for both ranks together
                        h.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    } catch (TimeoutException e) {
                        // asserted below
                    }
                }
                assertFalse(h != null && h.isAlive(), "rank pid " + pid + " outlived its launcher by 8 s");
            }
        } finally {
            launcher.destroyForcibly();
            for (long pid : pids) {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

}
