package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.examples.Hello;
import io.mpirunj.runtime.bootstrap.RendezvousServer;
import io.mpirunj.runtime.transport.tcp.TcpConfig;
import io.mpirunj.testapps.ExitRace;
import io.mpirunj.testapps.Exiter;
import io.mpirunj.testapps.Sleeper;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Regression tests for the launcher defects found when it was tried as a new user would (issue 15). */
class LauncherDefectsTest {
    private static final Pattern RENDEZVOUS = Pattern.compile("rendezvous on 127\\.0\\.0\\.1:(\\d+)");
    private static final Pattern RUNNING = Pattern.compile("(\\d+) of 100 ranks still running");

    /** Defect 1: after --timeout the launcher starts no more ranks; none is left when it returns. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void timeoutStopsTheSpawningAndLeavesNoRank() {
        LauncherRun run = LauncherRun.of("-np", "100", "--timeout", "1", "-v", Sleeper.class.getName());
        assertEquals(ExitCodes.TIMEOUT, run.exitCode(), run::toString);
        long started = run.errLines().stream().filter(l -> l.matches("mpirun-j: rank \\d+ exited with status .*"))
                .count();
        assertTrue(started < 100, "the launcher went on starting ranks after the timeout: " + started + " started");
        Matcher m = RUNNING.matcher(run.err());
        assertTrue(m.find(), run::toString);
        assertTrue(Integer.parseInt(m.group(1)) <= started, run::toString);
        assertEquals(List.of(), ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
                .map(ProcessHandle::pid).toList(), "rank processes left behind");
        if (100 > ProcessJob.RANKS_PER_CORE_WARNING * Runtime.getRuntime().availableProcessors()) {
            assertTrue(run.err().contains("warning: 100 rank JVMs on " + Runtime.getRuntime().availableProcessors()),
                    run::toString);
        }
    }

    /** Defect 1: ranks start at most {@link ProcessJob#maxStarting()} at a time, and every one still runs. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void pacedStartStillRunsEveryRank() {
        String old = System.setProperty(ProcessJob.MAX_STARTING_PROP, "2");
        try {
            LauncherRun run = LauncherRun.of("-np", "5", Hello.class.getName());
            assertEquals(0, run.exitCode(), run::toString);
            for (int r = 0; r < 5; r++) {
                assertTrue(run.out().contains("rank " + r + " of 5"), run::toString);
            }
        } finally {
            restore(ProcessJob.MAX_STARTING_PROP, old);
        }
    }

    /**
     * Defect 2: the launcher's port reports garbage, an oversized length and an idle connection, and
     * drops idle connections as soon as a rank's port does.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void launcherPortReportsAndDropsHostileConnections() throws Exception {
        assertEquals(TcpConfig.HANDSHAKE_TIMEOUT_MS_DEFAULT, RendezvousServer.REGISTER_TIMEOUT_MS_DEFAULT);
        String old = System.setProperty(RendezvousServer.REGISTER_TIMEOUT_MS_PROP, "300");
        LauncherRun.Running job;
        List<MatchResult> pids;
        try {
            // no --timeout: a limit short enough to wait for could strike before a slow machine is through;
            // the test ends the job itself below
            job = LauncherRun.start("-np", "2", "-v", Sleeper.class.getName());
            int port = awaitPort(job);
            // both ranks are up and blocked (as Sleeper is) before the hostile connections come
            pids = job.awaitOut(Pattern.compile("rank \\d pid (\\d+)"), 2);
            List<Socket> sockets = new ArrayList<>();
            try {
                Socket garbage = connect(port, sockets);
                garbage.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                Socket oversized = connect(port, sockets);
                ByteArrayOutputStream frame = new ByteArrayOutputStream();
                new DataOutputStream(frame).writeInt(Integer.MAX_VALUE);
                oversized.getOutputStream().write(frame.toByteArray());
                Socket idle = connect(port, sockets);
                for (Socket s : sockets) {
                    assertEquals(-1, readToEnd(s.getInputStream()), "the launcher closes the connection");
                }
                assertTrue(idle.isConnected());
            } finally {
                for (Socket s : sockets) {
                    s.close();
                }
            }
            awaitErr(job, "refused a connection to the launcher's port from", 3);
            String err = job.err().toString();
            assertTrue(err.contains("no registration within 300 ms"), err);
            assertTrue(err.contains("TooLongFrameException"), err);
            assertTrue(!job.done().isDone(), "the job itself is unharmed:\n" + err);
        } finally {
            restore(RendezvousServer.REGISTER_TIMEOUT_MS_PROP, old);
        }
        // the job is still whole: ending one rank ends it, as it would have without the hostile connections
        ProcessHandle.of(Long.parseLong(pids.get(0).group(1))).ifPresent(ProcessHandle::destroyForcibly);
        assertEquals(128 + 9, job.awaitEnd().exitCode());
    }

    /**
     * Defect 3: with --threads a rank's System.exit ends the JVM, and the launcher names the rank. In the middle of
     * the job (the others still running) the job fails with 1 whatever the status: a System.exit(0) there ended the
     * job with 0 (a new user's trial), where a rank process fails the job. Once every rank is in Mpi.finish, the
     * call's own status stands.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a blocking read
    void threadsSystemExitNamesTheRank() throws Exception {
        for (String status : new String[] {"7", "0"}) {
            LauncherRun run = threadsLauncher(3, Exiter.class, "2", status);
            assertEquals(1, run.exitCode(), run.out());
            assertEquals(List.of("mpirun-j: rank 2 called System.exit between Mpi.init and Mpi.finish, which ends every "
                    + "rank in --threads mode (the job fails with status 1: the status given to System.exit cannot be "
                    + "read here), while ranks 0-1 were still running"), run.out().lines().toList(), run.out());
        }
        LauncherRun complete = threadsLauncher(3, Exiter.class, "1", "5", "after-finish");
        assertEquals(5, complete.exitCode(), complete.out());
        assertTrue(complete.out().startsWith("mpirun-j: rank 1 called System.exit, which ends every rank in --threads "
                + "mode (the job exits with its status)"), complete.out());
        // no rank used MPI: a plain program's System.exit(0) is its own business, as with processes
        LauncherRun plain = threadsLauncher(3, io.mpirunj.testapps.PlainExit.class, "0");
        assertEquals(0, plain.exitCode(), plain.out());
        assertTrue(plain.out().contains("(the job exits with its status), while ranks"), plain.out());
    }

    /** {@code -np np --threads main args} in a launcher JVM of its own, to its exit. */
    private static LauncherRun threadsLauncher(int np, Class<?> main, String... args) throws Exception {
        List<String> all = new java.util.ArrayList<>(List.of("-np", Integer.toString(np), "--threads", "-cp",
                LauncherRun.classpathOf(main), main.getName()));
        all.addAll(List.of(args));
        return LauncherRun.inOwnJvm(all.toArray(String[]::new));
    }

    /**
     * Two ranks call System.exit at once, mid-job: the line names the one whose call ends the JVM (it runs the
     * shutdown hooks; the other waits to enter Shutdown.exit) and the ranks still running, and the job fails with 1.
     * Before, the hook named whichever exiting thread it met first and never said that other ranks were cut off.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a blocking read
    void threadsSystemExitRaceNamesTheRankWhoseCallEndsTheJob() throws Exception {
        LauncherRun run = threadsLauncher(4, ExitRace.class);
        assertEquals(1, run.exitCode(), run.out());
        assertEquals(List.of("mpirun-j: rank 1 called System.exit between Mpi.init and Mpi.finish, which ends every rank "
                + "in --threads mode (the job fails with status 1: the status given to System.exit cannot be read here), "
                + "while ranks 0, 3 were still running; rank 2 also called it (status lost)"), run.out().lines().toList(),
                run.out());
    }

    @Test
    void rankListsJoinConsecutiveRanks() {
        assertEquals("rank 3", ThreadJob.ranks(List.of(3)));
        assertEquals("ranks 0, 2-3", ThreadJob.ranks(List.of(0, 2, 3)));
        assertEquals("ranks 0-2, 5, 7-8", ThreadJob.ranks(List.of(0, 1, 2, 5, 7, 8)));
    }

    /**
     * A cost model whose t_end is 0 (end=0, or logp with L + 2o = 0) is one usage error, the same from the run
     * command's --model, MPIRUNJ_MODEL and simulate's --model (worded alike by both commands); before, all three accepted it (simulate printed
     * completion times of 0). t_hold above t_end stays a model (SPEC 1).
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void modelWithZeroEndIsOneUsageErrorEverywhere() {
        String reason = "model spec 'hold=1,end=0': end=0 gives an empty message t_end 0 (expected: end=C[+Dm] with"
                + " C > 0: t_end, from the start of a send to the end of its receive, is never 0)";
        LauncherRun run = LauncherRun.of("-np", "2", "--threads", "--model", "hold=1,end=0", Hello.class.getName());
        assertEquals(UsageException.EXIT_CODE, run.exitCode(), run::toString);
        assertEquals(List.of("mpirun-j: --model: " + reason), run.errLines(), run::toString);
        assertEquals("", run.out());
        run = LauncherRun.of(java.util.Map.of("MPIRUNJ_MODEL", "hold=1,end=0"), "-np", "2", "--threads",
                Hello.class.getName());
        assertEquals(UsageException.EXIT_CODE, run.exitCode(), run::toString);
        assertEquals(List.of("mpirun-j: MPIRUNJ_MODEL=hold=1,end=0: " + reason), run.errLines(), run::toString);
        run = LauncherRun.of("simulate", "-np", "4", "--model", "hold=1,end=0");
        assertEquals(UsageException.EXIT_CODE, run.exitCode(), run::toString);
        assertEquals(List.of("mpirun-j simulate: --model: " + reason), run.errLines(), run::toString);
        assertEquals("", run.out());
        run = LauncherRun.of("simulate", "-np", "4", "--model", "hold=50,end=10", "--algo", "opt-tree");
        assertEquals(0, run.exitCode(), run::toString);
    }

    /**
     * Output files go into directories that exist, as calibrate --out, bench --write-rules and --trace want:
     * schedule --png made missing directories, and trace --png died with a FileNotFoundException trace (status 1).
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void picturesIntoAMissingDirectoryAreOneUsageError(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        java.nio.file.Path missing = dir.resolve("out");
        LauncherRun run = LauncherRun.of("schedule", "--algo", "binomial", "-np", "4", "--png",
                missing.resolve("x.png").toString());
        assertEquals(UsageException.EXIT_CODE, run.exitCode(), run::toString);
        assertEquals(List.of("mpirun-j schedule: --png " + missing.resolve("x.png") + ": no such directory " + missing),
                run.errLines(), run::toString);
        run = LauncherRun.of("trace", dir.resolve("run.trace").toString(), "--png", missing.resolve("x.png").toString());
        assertEquals(UsageException.EXIT_CODE, run.exitCode(), run::toString);
        assertEquals(List.of("mpirun-j trace: --png " + missing.resolve("x.png") + ": no such directory " + missing),
                run.errLines(), run::toString);
        assertTrue(!java.nio.file.Files.exists(missing));
    }

    /** Defect 4: a bad -J option is one usage error, before any rank starts. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void badJvmOptionIsOneUsageError() {
        LauncherRun run = LauncherRun.of("-np", "3", "-J", "-Xmx1q", Hello.class.getName());
        assertEquals(UsageException.EXIT_CODE, run.exitCode(), run::toString);
        assertEquals(List.of("mpirun-j: -J/--jvm-arg -Xmx1q: the JVM refuses it: Invalid maximum heap size: -Xmx1q"),
                run.errLines());
        assertEquals("", run.out());
        // the JVM's reason follows its generic first line (a new user's trial saw only that line)
        run = LauncherRun.of("-np", "3", "-J", "-Xmx1k", Hello.class.getName());
        assertEquals(List.of("mpirun-j: -J/--jvm-arg -Xmx1k: the JVM refuses it: Too small maximum heap"),
                run.errLines(), run::toString);
    }

    /** Options after the main class are the program's: a missing -np says where the one given went. */
    @Test
    void anNpAfterTheMainClassIsNamedInTheMissingNpError() {
        LauncherRun run = LauncherRun.of(Hello.class.getName(), "-np", "4");
        assertEquals(UsageException.EXIT_CODE, run.exitCode(), run::toString);
        assertEquals(List.of("mpirun-j: missing -np N (the number of ranks to start); the -np after "
                + Hello.class.getName() + " goes to the program: options come before the main class"), run.errLines(),
                run::toString);
    }

    /**
     * An absurd rank count is one usage error naming the mode's limit; before, -np 2147483647 died in
     * Placement.local (processes) or ThreadJob (threads) with "OutOfMemoryError: Requested array size exceeds VM
     * limit" and a trace, rc 1, and -np 100000 --threads ran 17 s into an OutOfMemoryError trace.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void absurdRankCountsAreOneUsageError() {
        String[][] runs = {
            {"-np", "2147483647", Hello.class.getName()},
            {"-np", "2147483647", "--threads", Hello.class.getName()},
            {"-np", "100000", "--threads", Hello.class.getName()},
            {"-np", Integer.toString(MpirunJ.MAX_THREAD_RANKS + 1), "--threads", Hello.class.getName()},
            {"-np", Integer.toString(MpirunJ.MAX_PROCESS_RANKS + 1), Hello.class.getName()},
            {"--host", "localhost:2", "--oversubscribe", "-np", "2147483647", Hello.class.getName()},
        };
        for (String[] args : runs) {
            LauncherRun run = LauncherRun.of(args);
            assertEquals(UsageException.EXIT_CODE, run.exitCode(), run::toString);
            boolean threads = List.of(args).contains("--threads");
            assertEquals(List.of("mpirun-j: -np " + args[List.of(args).indexOf("-np") + 1] + " is more than mpirun-j runs "
                    + (threads ? "as threads (expected: at most 16384 ranks, each holding state for every other)"
                    : "as processes (expected: at most 65536 ranks)")), run.errLines(), run::toString);
            assertEquals("", run.out());
        }
    }

    /** Running out of heap while setting up a threads job is one line saying so, not an OutOfMemoryError trace. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a blocking read
    void outOfMemorySettingUpThreadsIsOneLine() throws Exception {
        List<String> cmd = List.of(ProcessJob.javaExecutable(), "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                MpirunJ.class.getName(), "-np", "3000", "--threads", Hello.class.getName());
        Process launcher = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        launcher.getOutputStream().close();
        String out = new String(launcher.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(1, launcher.waitFor(), out);
        assertEquals(1, out.lines().count(), out);
        assertTrue(out.matches("mpirun-j: out of memory with 3000 ranks as threads \\(this JVM's heap: at most \\d+ "
                + "MiB\\): run fewer ranks, or give the launcher more heap with MPIRUNJ_JAVA_OPTS=-Xmx\\.\\.\\.\\R"), out);
    }

    private static int awaitPort(LauncherRun.Running job) throws InterruptedException {
        return Integer.parseInt(job.awaitErr(RENDEZVOUS, 1).get(0).group(1));
    }

    private static void awaitErr(LauncherRun.Running job, String text, int count) throws InterruptedException {
        job.awaitErr(Pattern.compile(Pattern.quote(text)), count);
    }

    private static Socket connect(int port, List<Socket> sockets) throws Exception {
        Socket s = new Socket();
        sockets.add(s);
        s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        s.setSoTimeout(20_000);
        return s;
    }

    /** Reads until the peer closes; returns the last read's result (-1 at the end). */
    private static int readToEnd(InputStream in) throws Exception {
        byte[] b = new byte[256];
        int n;
        while ((n = in.read(b)) >= 0) {
            // discard
        }
        return n;
    }

    private static void restore(String prop, String old) {
        if (old == null) {
            System.clearProperty(prop);
        } else {
            System.setProperty(prop, old);
        }
    }
}
