package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;

/**
 * kill -9 of one rank process of a running job, once every rank is where the test wants it: each rank has printed
 * {@code rank R pid P}, the victim its {@code mark}, every other rank {@code rank R enters OP}. Then the job's end
 * ({@code run}, exit status 137) and the ranks' pids, to check that none survived it.
 */
record RankKill(List<MatchResult> pids, LauncherRun run) {
    static final Pattern PID = Pattern.compile("rank (\\d+) pid (\\d+)");

    /** Kills {@code victim} of the {@code np} ranks of {@code job} inside {@code op}; a hang runs into the @Timeout. */
    static RankKill during(LauncherRun.Running job, int np, int victim, String mark, String op)
            throws InterruptedException, ExecutionException {
        List<MatchResult> pids = job.awaitOut(PID, np);
        job.awaitOut(Pattern.compile(mark), 1);
        job.awaitOut(Pattern.compile("rank \\d+ enters " + op), np - 1);
        long victimPid = pids.stream().filter(m -> m.group(1).equals(Integer.toString(victim)))
                .mapToLong(m -> Long.parseLong(m.group(2))).findFirst().orElseThrow();
        assertTrue(ProcessHandle.of(victimPid).map(ProcessHandle::destroyForcibly).orElse(false), "killed the victim");

        LauncherRun run = job.awaitEnd();
        assertEquals(128 + 9, run.exitCode(), run::toString);
        return new RankKill(pids, run);
    }

    /** Asserts that no rank process outlived the job. */
    void assertNoRankSurvived() {
        for (MatchResult m : pids) {
            long pid = Long.parseLong(m.group(2));
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
                    "rank " + m.group(1) + " (pid " + pid + ") survived the job\n" + run);
        }
    }
}
