package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.testapps.Sleeper;
import io.mpirunj.testapps.Victim;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * "A failure is never a hang", end to end: kill -9 of a rank process while the others are blocked
 * in a broadcast, an all-to-all or a receive from ANY_SOURCE; a rank thread dying likewise; and a
 * launcher killed under its ranks. Each checks the exit status, that the output names the dead rank,
 * that every survivor's pending call failed naming it, and that no rank process or thread survives.
 * Every wait is for an event (a line of output, a job's or a process's end); the only clock is each test's
 * {@code @Timeout}, which a hang runs into: how fast a job ends after a kill is measured by
 * {@code benchmarks/kill9-trials.sh}, not asserted here.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@ExtendWith(SurvivorsEndByThemselves.class)
class FailureDetectionTest {
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
        RankKill kill = RankKill.during(job, np, victim, "victim ready", op);
        LauncherRun run = kill.run();
        assertTrue(run.err().contains("rank " + victim + " exited with status 137 (killed by signal 9, SIGKILL)"),
                run::toString);
        for (int r = 0; r < np; r++) {
            if (r != victim) {
                String caught = "rank " + r + " caught RankFailedException naming rank " + victim + ": ";
                assertTrue(run.out().contains(caught), caught + "\n" + run);
            }
        }
        assertFalse(run.out().contains("without the victim"), run::toString);
        kill.assertNoRankSurvived();
    }

    @ParameterizedTest(name = "a rank thread dies during {0}, np={1}")
    @MethodSource("cases")
    void aDyingRankThreadFailsTheOthersAndLeavesNoThread(String op, int np) throws InterruptedException {
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
        awaitNoRankThreads(np);
    }

    /**
     * Waits until no thread called {@code rank-R} (R < np) is alive: the rank threads of a threads-mode job end
     * with it or soon after (ThreadJob's stop graces are clocks of its own, which a loaded machine can outrun).
     * A rank thread that never ends runs into the test's @Timeout.
     */
    static void awaitNoRankThreads(int np) throws InterruptedException {
        Set<String> names = Stream.iterate(0, r -> r < np, r -> r + 1).map(r -> "rank-" + r).collect(Collectors.toSet());
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (names.contains(t.getName())) {
                t.join();
            }
        }
    }

    /**
     * SIGTERM (or Ctrl-C: the same shutdown hook) to the launcher: it ends the ranks itself, so it names none of them
     * as the failure; it sends them SIGTERM before SIGKILL, so their shutdown hooks run (they were killed at once). (SIGTERM: a JVM started with SIGINT ignored, e.g. in the background of a script, keeps it so.)
     */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // blocking reads
    void aStoppedLauncherEndsItsRanksWithoutBlamingOne() throws Exception {
        try (LauncherProcess job = LauncherProcess.withTwoSleepers("mpi")) {
            job.launcher.toHandle().destroy(); // SIGTERM (Process.destroy would close the output we still read)
            job.readToEnd();
            assertEquals(128 + 15, job.launcher.waitFor(), job.seen::toString);
            assertFalse(job.seen.toString().contains("exited with status"), job.seen::toString);
            // SIGTERM first, as Open MPI's mpirun forwards it: the ranks' shutdown hooks run and what they print arrives
            assertTrue(job.seen.toString().contains("rank 0 shutdown hook ran"), job.seen::toString);
            assertTrue(job.seen.toString().contains("rank 1 shutdown hook ran"), job.seen::toString);
            job.awaitRankExits(); // the hook ended them; one that outlives the launcher runs into the @Timeout
        }
    }

    @ParameterizedTest(name = "launcher killed, ranks {0}")
    @ValueSource(strings = {"mpi", "plain"})
    @Timeout(value = 180, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // blocking reads
    void ranksOfAKilledLauncherExitByThemselves(String mode) throws Exception {
        try (LauncherProcess job = LauncherProcess.withTwoSleepers(mode)) {
            for (long pid : job.pids) {
                assertTrue(ProcessHandle.of(pid).isPresent(), "rank pid " + pid + " is alive");
            }
            job.launcher.destroyForcibly(); // kill -9: no shutdown hook runs
            job.launcher.waitFor();
            job.awaitRankExits(); // a rank that outlives its launcher runs into the @Timeout
        }
    }

    /**
     * A launcher JVM of its own running {@code -np 2 Sleeper MODE}, read until both ranks printed their pids; closing
     * it kills whatever is left.
     */
    private static final class LauncherProcess implements AutoCloseable {
        final Process launcher;
        final BufferedReader out;
        final List<Long> pids = new ArrayList<>();
        final StringBuilder seen = new StringBuilder();

        private LauncherProcess(Process launcher) {
            this.launcher = launcher;
            this.out = new BufferedReader(new InputStreamReader(launcher.getInputStream(), StandardCharsets.UTF_8));
        }

        static LauncherProcess withTwoSleepers(String mode) throws IOException {
            List<String> cmd = List.of(ProcessJob.javaExecutable(), "-cp", System.getProperty("java.class.path"),
                    MpirunJ.class.getName(), "-np", "2", Sleeper.class.getName(), mode);
            LauncherProcess job = new LauncherProcess(new ProcessBuilder(cmd).redirectErrorStream(true).start());
            String line;
            while (job.pids.size() < 2 && (line = job.out.readLine()) != null) {
                job.seen.append(line).append('\n');
                var m = RankKill.PID.matcher(line);
                if (m.find()) {
                    job.pids.add(Long.parseLong(m.group(2)));
                }
            }
            assertEquals(2, job.pids.size(), "both ranks started:\n" + job.seen);
            return job;
        }

        void readToEnd() throws IOException {
            String line;
            while ((line = out.readLine()) != null) {
                seen.append(line).append('\n');
            }
        }

        /** Each rank's exit is the event waited for (interruptible, as the @Timeout needs). */
        void awaitRankExits() throws Exception {
            for (long pid : pids) {
                ProcessHandle h = ProcessHandle.of(pid).orElse(null);
                if (h != null) {
                    h.onExit().get();
                }
            }
        }

        @Override
        public void close() throws IOException {
            launcher.destroyForcibly();
            for (long pid : pids) {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            }
            out.close();
        }
    }
}
