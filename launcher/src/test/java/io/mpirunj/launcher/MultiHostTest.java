package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.examples.Hello;
import io.mpirunj.testapps.Exiter;
import io.mpirunj.testapps.NodeReport;
import io.mpirunj.testapps.Sleeper;
import io.mpirunj.testapps.SkipsInit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two "hosts" on this machine, 127.0.0.2 and 127.0.0.3, reached through the ssh launch-agent path
 * end to end: a fake {@code ssh} runs the quoted command line locally, as sshd would. Ranks listen
 * on their node's address (a peer reaches a rank only at 127.0.0.2 or .3), and a node that dies or
 * goes silent ends the job naming its ranks.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MultiHostTest {
    @TempDir
    static Path dir;
    static Path hostfile;
    static Path agent;

    @BeforeAll
    static void fakeSshAndHostfile() throws Exception {
        agent = dir.resolve("ssh");
        // as sshd: the remote side gets one command line and runs it with sh
        Files.writeString(agent, "#!/bin/sh\nhost=\"$1\"; shift\nexec sh -c \"exec $*\"\n");
        Files.setPosixFilePermissions(agent, PosixFilePermissions.fromString("rwx------"));
        hostfile = Files.writeString(dir.resolve("hosts"), "# two nodes on loopback\n127.0.0.2 slots=2\n127.0.0.3:2\n");
    }

    private static List<String> args(String... tail) {
        List<String> a = new ArrayList<>(List.of("--hostfile", hostfile.toString(), "--launch-agent", agent.toString()));
        a.addAll(List.of(tail));
        return a;
    }

    @Test
    void ranksOnTwoHostsTalkThroughTheirNodesAddresses() {
        LauncherRun run = LauncherRun.of(args("-np", "4", NodeReport.class.getName()).toArray(String[]::new));
        assertEquals(0, run.exitCode(), run::toString);
        for (int r = 0; r < 4; r++) {
            String host = r < 2 ? "127.0.0.2" : "127.0.0.3";
            assertTrue(run.out().contains("rank " + r + " of 4 on " + host + " local " + (r % 2) + "/2 sum 6"),
                    run::toString);
        }
    }

    @Test
    void mapByNodeAndRanksFromTheSlots() {
        // without -np: one rank per slot
        LauncherRun run = LauncherRun.of(args("--map-by", "node", NodeReport.class.getName()).toArray(String[]::new));
        assertEquals(0, run.exitCode(), run::toString);
        for (int r = 0; r < 4; r++) {
            String host = r % 2 == 0 ? "127.0.0.2" : "127.0.0.3";
            assertTrue(run.out().contains("rank " + r + " of 4 on " + host + " local " + (r / 2) + "/2 sum 6"),
                    run::toString);
        }
    }

    @Test
    void badHostfileIsOneUsageError() throws Exception {
        Path bad = Files.writeString(dir.resolve("bad"), "a slots=2\nb slots=two\n");
        LauncherRun run = LauncherRun.of("--hostfile", bad.toString(), "-np", "2", Hello.class.getName());
        assertEquals(UsageException.EXIT_CODE, run.exitCode(), run::toString);
        assertEquals(List.of("mpirun-j: " + bad + " line 2: slots=two (expected: a count >= 1)"), run.errLines());
        LauncherRun tooMany = LauncherRun.of(args("-np", "5", Hello.class.getName()).toArray(String[]::new));
        assertEquals(List.of("mpirun-j: -np 5 is more than the 4 slots of 2 hosts (add slots, or --oversubscribe)"),
                tooMany.errLines());
    }

    @Test
    void aNodeWhoseRanksDieIsReportedAsLost() throws Exception {
        LauncherRun.Running job = LauncherRun.start(args("-np", "4", Sleeper.class.getName()).toArray(String[]::new));
        List<MatchResult> pids = job.awaitOut(Pattern.compile("rank (\\d) pid (\\d+)"), 4);
        for (MatchResult m : pids) {
            if (Integer.parseInt(m.group(1)) >= 2) {
                ProcessHandle.of(Long.parseLong(m.group(2))).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
        LauncherRun run = job.awaitEnd();
        assertNotEquals(0, run.exitCode(), run::toString);
        assertTrue(run.err().contains("lost node 127.0.0.3: ranks 2-3 ("), run::toString);
    }

    @Test
    void aSilentNodeIsLostByHeartbeat() throws Exception {
        LauncherRun.Running job = LauncherRun.start(args("-np", "4", Sleeper.class.getName()).toArray(String[]::new));
        List<MatchResult> pids = job.awaitOut(Pattern.compile("rank (\\d) pid (\\d+)"), 4);
        List<String> stop = new ArrayList<>(List.of("kill", "-STOP"));
        for (MatchResult m : pids) {
            if (Integer.parseInt(m.group(1)) < 2) {
                stop.add(m.group(2)); // frozen: their connections stay open but say nothing, as a cut cable
            }
        }
        assertEquals(0, new ProcessBuilder(stop).inheritIO().start().waitFor());
        LauncherRun run = job.awaitEnd();
        assertNotEquals(0, run.exitCode(), run::toString);
        assertTrue(run.err().contains("lost node 127.0.0.2: ranks 0-1 ("), run::toString);
        assertTrue(run.err().contains("no heartbeat for"), run::toString);
        assertEquals(List.of(), ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
                .map(ProcessHandle::pid).toList(), "rank processes left behind");
    }

    /**
     * A rank on another host that ends with status 0 without Mpi.finish fails the job with the line a local rank's
     * would (as Open MPI's mpirun: "exited without calling finalize"), not as a lost node: its launch agent's exit
     * status is its own.
     */
    @Test
    void aRemoteRankThatExitsZeroInTheMiddleOfTheJobFailsItNamingTheRank() {
        LauncherRun run = LauncherRun.of(args("-np", "4", Exiter.class.getName(), "3", "0").toArray(String[]::new));
        assertEquals(1, run.exitCode(), run::toString);
        assertTrue(run.err().contains("mpirun-j: rank 3 exited with status 0 without calling Mpi.finish"),
                run::toString);
        assertTrue(!run.out().contains("still alive"), run::toString);
    }

    /** As for a local rank: one on another host that ends before Mpi.init while the others called it. */
    @Test
    void aRemoteRankThatEndsBeforeJoiningWhileOthersJoinFailsTheJob() {
        LauncherRun run = LauncherRun.of(args("-np", "4", SkipsInit.class.getName(), "2").toArray(String[]::new));
        assertEquals(1, run.exitCode(), run::toString);
        assertTrue(run.out().contains("rank 2 returns before Mpi.init"), run::toString);
        assertTrue(run.err().contains("mpirun-j: rank 2 exited with status 0 before calling Mpi.init, while other "
                + "ranks called it"), run::toString);
        assertTrue(!run.out().contains("still alive"), run::toString);
    }
}
