package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.examples.CollectivesDemo;
import io.mpirunj.examples.Hello;
import io.mpirunj.examples.Ring;
import io.mpirunj.testapps.Aborter;
import io.mpirunj.testapps.EchoArgs;
import io.mpirunj.testapps.EnvDump;
import io.mpirunj.testapps.Exiter;
import io.mpirunj.testapps.MismatchedBcasts;
import io.mpirunj.testapps.CatchesPeerLoss;
import io.mpirunj.testapps.FinallyFinish;
import io.mpirunj.testapps.NoMpi;
import io.mpirunj.testapps.ReturnsEarly;
import io.mpirunj.testapps.SkipsInit;
import io.mpirunj.testapps.StdinEcho;
import io.mpirunj.testapps.Thrower;
import io.mpirunj.testapps.Waiter;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code mpirun-j} with one JVM per rank. The ranks' classpath is this test JVM's
 * {@code java.class.path}: runtime, collectives, examples and the test programs.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ProcessModeTest {
    @BeforeAll
    static void theTestClasspathHoldsEverythingARankNeeds() {
        String cp = System.getProperty("java.class.path");
        assertTrue(cp.contains("test-classes"), "java.class.path is the real test classpath: " + cp);
    }

    private static Set<String> set(List<String> lines) {
        return new TreeSet<>(lines);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void helloPrintsOneTaggedLinePerRank(int np) {
        LauncherRun run = LauncherRun.of("-np", Integer.toString(np), "--tag-output", Hello.class.getName());
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals(np, run.outLines().size(), run::toString);
        for (int r = 0; r < np; r++) {
            String prefix = "[" + r + "] Hello from rank " + r + " of " + np + " on ";
            assertTrue(run.outLines().stream().anyMatch(l -> l.startsWith(prefix)), prefix + "\n" + run);
        }
    }

    @Test
    void ringPassesTheTokenAround() {
        LauncherRun run = LauncherRun.of("-np", "3", Ring.class.getName(), "2");
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.out().contains("rank 0 received token 6 from rank 2: ring of 3 done (expected 6)"),
                run::toString);
    }

    /**
     * A rank JVM connects and exchanges messages without generating proxy classes: Netty's handler annotations
     * ({@code @Skip}, {@code @Sharable}), read by reflection for each handler class in a pipeline, made the JDK
     * generate five per rank JVM (io.mpirunj.runtime.transport.tcp.PlainInboundHandler says why that matters).
     */
    @Test
    void aRankJvmGeneratesNoProxyClasses() {
        LauncherRun run = LauncherRun.of("-np", "2", "-J", "-Xlog:class+load=info:stdout", Ring.class.getName(), "1");
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.out().contains("ring of 2 done"), run::toString);
        assertTrue(run.out().contains("io.mpirunj.runtime.transport.tcp.TcpTransport source:"), "the class log reached us");
        List<String> proxies = run.outLines().stream().filter(l -> l.contains("__dynamic_proxy__")).collect(Collectors.toList());
        assertEquals(List.of(), proxies);
    }

    /**
     * Mpi.finish waits for the other ranks through the launcher, not over the ranks' own connections, so ranks that
     * never talk open none; Ring, which talks, shows that the transport's log line would be seen.
     */
    @ParameterizedTest
    @CsvSource({"false, io.mpirunj.examples.Hello, ", "true, io.mpirunj.examples.Ring, 1"})
    void onlyRanksThatTalkOpenConnections(boolean talks, String main, String arg) {
        List<String> args = new java.util.ArrayList<>(List.of("-np", "3", "-J",
                "-Dorg.slf4j.simpleLogger.log.io.mpirunj.runtime.transport=debug", main));
        if (arg != null) {
            args.add(arg);
        }
        LauncherRun run = LauncherRun.of(args.toArray(new String[0]));
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals(3, run.errLines().stream().filter(l -> l.contains("TCP transport listening on")).count(),
                run::toString);
        assertEquals(talks, run.err().contains("sending to rank"), run::toString);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4})
    void collectivesDemoChecksItselfOnEveryRank(int np) {
        LauncherRun run = LauncherRun.of("-np", Integer.toString(np), CollectivesDemo.class.getName(), "100");
        assertEquals(0, run.exitCode(), run::toString);
        Set<String> want = IntStream.range(0, np)
                .mapToObj(r -> "rank " + r + " of " + np + ": OK (bcast, alltoall, allreduce; 100 elements per block)")
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(want, set(run.outLines()), run::toString);
    }

    @Test
    void argumentsReachEveryRankUntouched() {
        LauncherRun run = LauncherRun.of("-np", "2", EchoArgs.class.getName(), "-x", "1", "--bar", "a b", "$HOME",
                "--", "");
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals(set(List.of("rank 0 args -x|1|--bar|a b|$HOME|--|", "rank 1 args -x|1|--bar|a b|$HOME|--|")),
                set(run.outLines()), run::toString);
    }

    @Test
    void rankIdentityTravelsInTheEnvironment() {
        LauncherRun run = LauncherRun.of("-np", "2", "--coll", "bcast=linear-p2p", EnvDump.class.getName());
        assertEquals(0, run.exitCode(), run::toString);
        String common = " OMPI_COMM_WORLD_SIZE=2";
        assertEquals(set(List.of(
                "env OMPI_COMM_WORLD_RANK=0" + common + " OMPI_COMM_WORLD_LOCAL_RANK=0 OMPI_COMM_WORLD_LOCAL_SIZE=2"
                        + " PMI_RANK=0 PMI_SIZE=2 MPIRUNJ_COLL=bcast=linear-p2p token=true rendezvous=true",
                "env OMPI_COMM_WORLD_RANK=1" + common + " OMPI_COMM_WORLD_LOCAL_RANK=1 OMPI_COMM_WORLD_LOCAL_SIZE=2"
                        + " PMI_RANK=1 PMI_SIZE=2 MPIRUNJ_COLL=bcast=linear-p2p token=true rendezvous=true")),
                set(run.outLines()), run::toString);
    }

    @Test
    void aThrowingRankFailsTheJobWithItsTrace() {
        LauncherRun run = LauncherRun.of("-np", "3", Thrower.class.getName(), "1");
        assertEquals(1, run.exitCode(), run::toString);
        assertTrue(run.err().contains("[rank 1] java.lang.IllegalStateException: boom from rank 1"), run::toString);
        assertTrue(run.err().contains("rank 1 exited with status 1"), run::toString);
        // the trace ends at the program's main, as java shows it: not in the launcher's reflection into it
        assertTrue(run.err().contains("[rank 1] \tat " + Thrower.class.getName() + ".main("), run::toString);
        assertFalse(run.err().contains("RankMain") || run.err().contains(".reflect.")
                || run.err().contains("FastThreadLocalThread"), run::toString);
    }

    /** With --tag-output the launcher names the rank on every line; the rank's own lines do not name it again. */
    @Test
    void taggedOutputNamesTheThrowingRankOnce() {
        LauncherRun run = LauncherRun.of("-np", "2", "--tag-output", Thrower.class.getName(), "1");
        assertEquals(1, run.exitCode(), run::toString);
        assertTrue(run.err().contains("[1] java.lang.IllegalStateException: boom from rank 1"), run::toString);
        assertFalse(run.err().contains("[rank 1]"), run::toString);
    }

    /**
     * {@code try { ... } finally { Mpi.finish(); }} with one rank throwing before a barrier: the others waited for it
     * for ever (its exception unseen, as its finally block took it into Mpi.finish's fence). Now the launcher tells
     * them which ranks are in the fence, and the barrier fails, naming the rank.
     */
    @Test
    void aRankInFinishFailsTheCallsThatWaitForItInsteadOfHangingThem() {
        LauncherRun run = LauncherRun.of("-np", "3", FinallyFinish.class.getName(), "1");
        assertEquals(1, run.exitCode(), run::toString);
        assertTrue(run.err().contains(": a collective call waits for a message from rank 1 (world) that can never come: "
                + "rank 1 (world) is in Mpi.finish"), run::toString);
        assertTrue(run.err().contains("Mpi.finish in a finally block, reached while an exception passed through it?"),
                run::toString);
    }

    /**
     * The same in {@code try (Comm world = Mpi.init(args)) { ...; Mpi.finish(); }}: the thrower's own exception is
     * printed, with the world's close before Mpi.finish suppressed in it (no launcher frames in either), and the job
     * fails naming it (a finally block's Mpi.finish that fails replaces the exception instead). The others' lines are
     * not asserted: the launcher may stop them before they print.
     */
    @Test
    void aRankLeavingTryWithResourcesByAnExceptionShowsThatException() {
        LauncherRun run = LauncherRun.of("-np", "3", FinallyFinish.class.getName(), "1", "resources");
        assertEquals(1, run.exitCode(), run::toString);
        assertTrue(run.err().contains("[rank 1] java.lang.IllegalStateException: boom from rank 1"), run::toString);
        assertTrue(run.err().contains("[rank 1] \tSuppressed: io.mpirunj.MpiException: world.close() before "
                + "Mpi.finish()"), run::toString);
        assertTrue(run.err().contains("mpirun-j: rank 1 exited with status 1"), run::toString);
        assertFalse(run.err().contains("RankMain") || run.err().contains(".reflect.")
                || run.err().contains("FastThreadLocalThread"), run::toString);
    }

    /**
     * System.exit(N) of one rank in the middle of the job is the job's status and stops the others; System.exit(0)
     * fails the job too (Open MPI's "exited without calling finalize"), else the others would wait for it forever;
     * so does a rank whose other thread exits while it waits in Mpi.finish for ranks still working with it.
     */
    @ParameterizedTest(name = "rank {0} System.exit({1}) {2}")
    @CsvSource({"2, 3, , 3, rank 2 exited with status 3",
            "1, 0, , 1, rank 1 exited with status 0 without calling Mpi.finish",
            "1, 0, in-finish, 1, rank 1 exited with status 0 inside Mpi.finish, before every rank had reached it"})
    void systemExitOfOneRankEndsTheJobNamingItAndStopsTheOthers(String rank, String status, String where,
            int jobStatus, String said) {
        LauncherRun run = where == null ? LauncherRun.of("-np", "3", Exiter.class.getName(), rank, status)
                : LauncherRun.of("-np", "3", Exiter.class.getName(), rank, status, where);
        assertEquals(jobStatus, run.exitCode(), run::toString);
        assertTrue(run.err().contains(said), run::toString);
        assertFalse(run.out().contains("still alive"), run::toString);
    }

    /**
     * A collective one rank skipped hands it the previous call's data (as in any MPI); the message no collective
     * received is still there once the collective messages the job's fence counted have arrived, so the job fails
     * naming it instead of ending with 0 (a new user's trial: it ended with 0).
     */
    @Test
    void aBcastOneRankSkippedFailsTheJobNamingTheUnreceivedMessage() {
        LauncherRun run = LauncherRun.of("-np", "2", MismatchedBcasts.class.getName(), "skip", "1");
        assertEquals(1, run.exitCode(), run::toString);
        assertTrue(run.out().contains("rank 1 holds 1"), run::toString);
        assertTrue(run.err().contains("[rank 1] io.mpirunj.MpiException: rank 1: Mpi.finish: 1 message (4 bytes) that"
                + " collectives of rank 0 sent to rank 1 on the world communicator was received by none of rank 1's"
                + " collectives: the ranks' collective calls did not match"), run::toString);
    }

    /**
     * No traffic before them opens the connections: the bcasts' messages may come in while the receivers are in
     * Mpi.finish (a review found these jobs ending with 0 when Mpi.finish looked before they had arrived).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"own-root", "only-root"})
    void bcastsThatSendToRanksThatNeverReceiveFailTheJob(String mode) {
        LauncherRun run = LauncherRun.of("-np", "4", MismatchedBcasts.class.getName(), mode);
        assertEquals(1, run.exitCode(), run::toString);
        assertTrue(run.err().matches("(?s).* on the world communicator (was|were) received by none of rank .*"),
                run::toString);
    }

    /** With --check-collectives the same program fails when the calls first differ: rank 1's Mpi.finish. */
    @Test
    void checkedCollectivesNameTheFirstCallsThatDiffer() {
        LauncherRun run = LauncherRun.of("-np", "2", "--check-collectives", MismatchedBcasts.class.getName(), "skip",
                "1");
        assertEquals(1, run.exitCode(), run::toString);
        assertTrue(run.err().contains(": the ranks' collective calls do not match (--check-collectives): call 2 on"
                + " the world communicator is bcast(root 0, 4 bytes) on rank 0; Mpi.finish on rank 1"), run::toString);
    }

    /** Open MPI's "exited without calling finalize": was a hang (the launcher finished the rank for it). */
    @Test
    void aRankWhoseMainReturnsWithoutFinishFailsTheJob() {
        assertFailedSaying(LauncherRun.of("-np", "3", ReturnsEarly.class.getName(), "1", "without-finish"), 1,
                "[rank 1] mpirun-j: main returned without calling Mpi.finish", "mpirun-j: rank 1 exited with status 1");
    }

    /** The job ended with {@code status}, its stderr saying each of {@code said}; no rank went on past the failure. */
    private static void assertFailedSaying(LauncherRun run, int status, String... said) {
        assertEquals(status, run.exitCode(), run::toString);
        for (String line : said) {
            assertTrue(run.err().contains(line), run::toString);
        }
        assertFalse(run.out().contains("still alive"), run::toString);
    }

    /**
     * A rank that catches another's failure and returns without Mpi.finish is a consequence, not the job's failure: no
     * line blames it, and the job's status is the failed rank's, whether it heard of the loss from its connection
     * or from the launcher first.
     */
    @Test
    void aRankGivingUpOnAFailedJobIsNotBlamedForItsReturn() {
        LauncherRun run = LauncherRun.of("-np", "2", CatchesPeerLoss.class.getName());
        assertFailedSaying(run, 3, "rank 1 exited with status 3");
        assertTrue(run.out().contains("rank 0 caught the loss of rank 1 and returns"), run::toString);
        assertFalse(run.err().contains("main returned without calling Mpi.finish"), run::toString);
    }

    /** Open MPI's "did not call init before exiting, but others in the job did": was a hang. */
    @Test
    void aRankThatEndsBeforeJoiningWhileOthersJoinFailsTheJob() {
        LauncherRun run = LauncherRun.of("-np", "3", SkipsInit.class.getName(), "1");
        assertEquals(1, run.exitCode(), run::toString);
        assertTrue(run.out().contains("rank 1 returns before Mpi.init"), run::toString);
        assertTrue(run.err().contains("rank 1 exited with status 0 before calling Mpi.init, while other ranks "
                + "called it"), run::toString);
        assertFalse(run.out().contains("still alive"), run::toString);
    }

    /**
     * A rank that never calls Mpi.init: the others fail in it when the rendezvous times out, and the launcher names
     * the rank they waited for (each rank knew only that "not every rank registered"). The rank's line has no
     * SocketTimeoutException and its JDK frames beneath it.
     */
    @Test
    void aRankThatNeverJoinsIsNamedWhenTheRendezvousTimesOut() {
        LauncherRun run = LauncherRun.of("-np", "3", "-x", "MPIRUNJ_RENDEZVOUS_TIMEOUT_MS=2000", SkipsInit.class.getName(),
                "1", "blocks");
        assertEquals(1, run.exitCode(), run::toString);
        assertTrue(run.err().contains("not every rank registered with the rendezvous at "), run::toString);
        assertTrue(run.err().contains(" within 2000 ms (MPIRUNJ_RENDEZVOUS_TIMEOUT_MS)"), run::toString);
        // rank 2's registration may come after rank 0's timeout on a loaded machine: then both are named
        String named = "mpirun-j: when rank [02] failed, (rank 1|ranks 1-2) had not joined the job \\(no Mpi.init from "
                + "(it|them) yet\\)";
        assertEquals(1, run.errLines().stream().filter(l -> l.matches(named)).count(), run::toString);
        assertFalse(run.err().contains("SocketTimeoutException"), run::toString);
    }

    /**
     * As above with the ranks started one at a time: the rank that never joins keeps the next from starting, the
     * timeout the user set stands (the batches' longer default replaced it) and both ranks waited for are named.
     */
    @Test
    void aUsersRendezvousTimeoutStandsWhenRanksStartInBatches() {
        String old = System.setProperty(ProcessJob.MAX_STARTING_PROP, "1");
        try {
            LauncherRun run = LauncherRun.of("-np", "3", "-x", "MPIRUNJ_RENDEZVOUS_TIMEOUT_MS=2000",
                    SkipsInit.class.getName(), "1", "blocks");
            assertEquals(1, run.exitCode(), run::toString);
            assertTrue(run.err().contains("rank 0: not every rank registered with the rendezvous at "), run::toString);
            assertTrue(run.err().contains(" within 2000 ms (MPIRUNJ_RENDEZVOUS_TIMEOUT_MS)"), run::toString);
            assertTrue(run.errLines().contains(
                    "mpirun-j: when rank 0 failed, ranks 1-2 had not joined the job (no Mpi.init from them yet)"),
                    run::toString);
        } finally {
            if (old == null) {
                System.clearProperty(ProcessJob.MAX_STARTING_PROP);
            } else {
                System.setProperty(ProcessJob.MAX_STARTING_PROP, old);
            }
        }
    }

    /** The launcher's standard input goes to rank 0, as with Open MPI's mpirun; the other ranks read none. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a blocking read
    void standardInputGoesToRankZero() throws Exception {
        List<String> cmd = List.of(ProcessJob.javaExecutable(), "-cp", System.getProperty("java.class.path"),
                MpirunJ.class.getName(), "-np", "2", StdinEcho.class.getName());
        Process launcher = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            launcher.getOutputStream().write("hello from stdin\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            launcher.getOutputStream().close();
            String out = new String(launcher.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(0, launcher.waitFor(), out);
            assertEquals(set(List.of("rank 0 read: hello from stdin", "rank 1 read: null")), set(out.lines().toList()),
                    out);
        } finally {
            launcher.destroyForcibly();
        }
    }

    @Test
    void abortEndsTheJobWithItsCode() {
        LauncherRun run = LauncherRun.of("-np", "3", Aborter.class.getName(), "0", "5");
        assertEquals(5, run.exitCode(), run::toString);
    }

    /**
     * The ranks the launcher stops after another failed are sent SIGTERM and their output is read to its end: what
     * their shutdown hooks print arrives (Process.destroy closed the launcher's end of their pipes, so it was lost,
     * as was any output not yet read).
     */
    @Test
    void theOutputOfRanksStoppedAfterAFailureIsReadToItsEnd() {
        LauncherRun run = LauncherRun.of("-np", "3", io.mpirunj.testapps.HookedExit.class.getName(), "1");
        assertEquals(3, run.exitCode(), run::toString);
        assertEquals(set(List.of("rank 0 shutdown hook ran", "rank 2 shutdown hook ran")), set(run.outLines()),
                run::toString);
    }

    /**
     * The same in a program written for Open MPI's Java API, whose MPIException wraps the abort the waiting ranks
     * learn of: they end quietly with it, as with the Comm API (each printed a 25-line trace of the runtime's frames).
     */
    @Test
    void anAbortInsideAnMpiExceptionIsQuietToo() {
        LauncherRun run = LauncherRun.of("-np", "3", io.mpirunj.testapps.MpiAborter.class.getName(), "0", "5");
        assertEquals(5, run.exitCode(), run::toString);
        // the waiting ranks may learn of the abort or of rank 0's end first: either way one line, no runtime frames
        assertFalse(run.err().contains("MPIException") || run.err().contains("\tat io.mpirunj.")
                || run.err().contains("\tat mpi."), run::toString);
    }

    @Test
    void strayNonDaemonThreadsDoNotKeepARankAlive() {
        LauncherRun run = LauncherRun.of("-np", "2", "--tag-output", NoMpi.class.getName(), "stray");
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals(set(List.of("[0] no newline at the end", "[1] no newline at the end")), set(run.outLines()),
                run::toString);
    }

    @Test
    void aRankKilledBySignalEndsTheJobWith128PlusTheSignal() throws Exception {
        LauncherRun.Running job = LauncherRun.start("-np", "3", Waiter.class.getName());
        // every rank is past its barrier and waiting: the ranks have met
        job.awaitOut(java.util.regex.Pattern.compile("rank \\d+ waiting"), 3);
        ProcessHandle victim = ProcessHandle.current().children()
                .filter(p -> p.info().arguments().map(a -> List.of(a).contains(Waiter.class.getName())).orElse(false))
                .findFirst().orElse(null);
        assertTrue(victim != null && victim.destroyForcibly(), "found a rank to kill");
        LauncherRun run = job.awaitEnd();
        assertEquals(128 + 9, run.exitCode(), run::toString);
        assertTrue(run.err().contains("(killed by signal 9, SIGKILL)"), run::toString);
    }

    /**
     * Ranks log at the launcher's level: errors only without -v (the runtime's warnings are its report's noise); the
     * options after it may set another.
     */
    private static final String QUIET_LOG = "-Dorg.slf4j.simpleLogger.defaultLogLevel=error";

    @Test
    void theRankCommandLineCarriesNoIdentity() {
        JobSpec spec = JobSpec.of(4, "com.example.App", List.of("-x"), List.of());
        List<String> expected = new java.util.ArrayList<>(List.of("-Xshare:auto"));
        expected.addAll(ProcessJob.RANK_STARTUP_JIT_OPTIONS);
        expected.addAll(List.of(QUIET_LOG, "-cp", "/launcher/cp", RankMain.class.getName(), "com.example.App", "-x"));
        assertEquals(expected, rankCommand(null, spec));
    }

    @Test
    void aSteadyStateJobsRanksKeepTheJvmsOwnCompileThresholds() {
        JobSpec spec = new JobSpec(2, "com.example.App", List.of(), List.of(), null,
                JobSpec.OutputOptions.CONSOLE, false, java.util.Map.of(), List.of("-Xmx64m"), 0, false);
        assertEquals(List.of("-Xshare:auto", QUIET_LOG, "-Xmx64m", "-cp", "/launcher/cp", RankMain.class.getName(),
                "com.example.App"), rankCommand(null, spec));
    }

    @Test
    void rankJvmOptionsOfTheLauncherComeBeforeThoseOfJ() {
        JobSpec spec = new JobSpec(2, "com.example.App", List.of(), List.of(), null,
                JobSpec.OutputOptions.CONSOLE, false, java.util.Map.of(), List.of("-Xmx64m"), 0, true);
        List<String> expected = new java.util.ArrayList<>(List.of("-Xshare:auto"));
        expected.addAll(ProcessJob.RANK_STARTUP_JIT_OPTIONS);
        expected.addAll(List.of(QUIET_LOG, "-XX:TieredStopAtLevel=1", "-Xss2m", "-Xmx64m", "-cp", "/launcher/cp",
                RankMain.class.getName(), "com.example.App"));
        assertEquals(expected, rankCommand(" -XX:TieredStopAtLevel=1  -Xss2m ", spec));
    }

    /**
     * A rank's command line after the java executable, for {@code spec} launched from class path
     * /launcher/cp with {@link ProcessJob#RANK_JVM_OPTIONS_PROP} set to {@code rankJvmOptions} (null: unset);
     * the property is restored after.
     */
    private static List<String> rankCommand(String rankJvmOptions, JobSpec spec) {
        String configured = System.getProperty(ProcessJob.RANK_JVM_OPTIONS_PROP);
        try {
            setRankJvmOptions(rankJvmOptions);
            List<String> cmd = new ProcessJob(spec, null, "/launcher/cp").rankCommand();
            return cmd.subList(1, cmd.size());
        } finally {
            setRankJvmOptions(configured);
        }
    }

    private static void setRankJvmOptions(String rankJvmOptions) {
        if (rankJvmOptions == null) {
            System.clearProperty(ProcessJob.RANK_JVM_OPTIONS_PROP);
        } else {
            System.setProperty(ProcessJob.RANK_JVM_OPTIONS_PROP, rankJvmOptions);
        }
    }
}
