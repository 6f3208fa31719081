package io.mpirunj.launcher;

import io.mpirunj.launcher.hosts.Host;
import io.mpirunj.launcher.hosts.JobLayout;
import io.mpirunj.launcher.hosts.Ranges;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.bootstrap.JobEnvironment;
import io.mpirunj.runtime.bootstrap.JobToken;
import io.mpirunj.runtime.bootstrap.ProcessBootstrap;
import io.mpirunj.runtime.bootstrap.RankDepartures;
import io.mpirunj.runtime.bootstrap.RendezvousServer;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.Stream;

/**
 * Runs a job with one JVM per rank (the default mode). Starts a {@link RendezvousServer} with a
 * fresh job token (on loopback, or on every interface when ranks run on other hosts), then the N
 * rank JVMs, at most {@link #maxStarting()} starting at a time:
 *
 * <pre>
 *   java -Xshare:auto -cp &lt;launcher classpath&gt;:&lt;user classpath&gt; io.mpirunj.launcher.RankMain MainClass args...
 * </pre>
 *
 * with the rank's identity and the rendezvous address only in the environment ({@link JobEnvironment}).
 * A rank on another host starts through the job's {@link io.mpirunj.launcher.hosts.LaunchAgent}, whose
 * local process stands for it; the ranks of a node that stops answering (its agent processes end, or
 * its control connections go silent) are reported together as a lost node.
 * Each rank's stdout and stderr are forwarded line by line. The exit status is 0 if every rank exits
 * 0, else the first failing rank's status (or the code a rank passed to {@code Comm.abort}); once a
 * rank fails the others are told through the rendezvous server, then stopped: SIGTERM after
 * {@link #STOP_GRACE_MS}, SIGKILL {@link #KILL_GRACE_MS} later, each through the rank's {@link ProcessHandle}, which
 * leaves the launcher's end of its output pipes open (Process.destroy closes them): what a stopped rank had written,
 * and what its shutdown hooks write, is read to its end.
 */
final class ProcessJob {
    /**
     * Between telling the surviving ranks about a failure and asking them to exit (SIGTERM). At np 8 under load
     * (~30) 8 of 20 kill -9 trials had survivors stopped before they printed the RankFailedException they caught,
     * where 5 s gave 10 of 10 (benchmarks/README.md, "Session 13: kill -9 trials (flaky)"); a longer grace also
     * delays every other stop (--timeout, abort, a lost node: DockerClusterTest's 10 s), so it stays 500 ms until
     * those paths get a grace of their own.
     */
    static final long STOP_GRACE_MS = 500;
    /** Overrides {@link #STOP_GRACE_MS}, and ThreadJob's (tests use it to watch the survivors fail). */
    static final String STOP_GRACE_MS_PROP = "mpirunj.launcher.stopGraceMs";
    /** How long the timeout report waits for the ranks to say what they are doing. */
    static final long STATUS_QUERY_MS = 1_000;
    /** Environment variable with the launcher's pid: a rank halts if that process disappears. */
    static final String LAUNCHER_PID_ENV = "MPIRUNJ_LAUNCHER_PID";
    /** Between SIGTERM and SIGKILL for ranks that are still alive. */
    static final long KILL_GRACE_MS = 2_000;
    /** How long to wait for a dead rank's output pipes to drain (a grandchild may hold them open). */
    static final long DRAIN_MS = 2_000;
    /** The address the rendezvous server binds when every rank is local. */
    static final String BIND_HOST = "127.0.0.1";
    /** The address it binds when some ranks are on other hosts (the job token guards it). */
    static final String BIND_ALL = "0.0.0.0";
    /** How many rank JVMs may be starting (not yet registered) at once; default {@link #maxStarting()}. */
    static final String MAX_STARTING_PROP = "mpirunj.launcher.maxStarting";
    /** Above this many local ranks per core the launcher warns that the host is oversubscribed. */
    static final int RANKS_PER_CORE_WARNING = 4;
    /** After a remote rank is lost, how long to gather the other losses of its node into one report. */
    static final long NODE_LOSS_WINDOW_MS = 1_000;
    /** How long a rank on another host waits without a heartbeat from the launcher before it ends. */
    static final long LAUNCHER_SILENCE_MS = 15_000;
    /** The {@code java} that ranks on other hosts run (default: java on their PATH). */
    static final String REMOTE_JAVA_ENV = "MPIRUNJ_REMOTE_JAVA";
    /**
     * JVM options for every rank, split at white space, before those of {@code -J}. The launcher's tests
     * set {@code -XX:TieredStopAtLevel=1}: their ranks live a few seconds, too short for C2's compile time
     * to pay off on a two-core machine running eight of them.
     */
    static final String RANK_JVM_OPTIONS_PROP = "mpirunj.launcher.rankJvmOptions";
    /**
     * The tier-3 part of a rank JVM's first options ({@link #RANK_STARTUP_JIT_OPTIONS}; those of
     * {@link #RANK_JVM_OPTIONS_PROP} and {@code -J} come after and win), which the launcher's JVM shares (the
     * {@code mpirun-j} script): compile a method at tier 3 after 2,000 calls instead of 200 (or 1,000 calls with 20,000
     * calls and loop turns together, instead of 100 and 2,000). A rank's start-up runs much code a few
     * hundred times and never again, and compiling it was a third of a rank's start-up CPU; hot code
     * reaches C1 and C2 a little later and runs the same after. {@code -np 16 Hello}, whole job, perf
     * task-clock, 3 runs each alternating, quiet machine: 7.9-8.0 CPU-s and 4.2-4.3 s wall with the JVM's
     * thresholds, 6.7-7.5 CPU-s and 3.6-4.0 s with these. Not for a job whose {@link JobSpec#startupJit()} is
     * false ({@code bench}'s: it times steady-state code, which these thresholds reach later).
     */
    static final List<String> STARTUP_JIT_OPTIONS = List.of("-XX:Tier3InvocationThreshold=2000",
            "-XX:Tier3MinInvocationThreshold=1000", "-XX:Tier3CompileThreshold=20000");
    /**
     * A rank JVM's options for its start-up: {@link #STARTUP_JIT_OPTIONS} (which the launcher JVM shares, with the
     * client compiler only) and tier-4 (C2) thresholds three times the JVM's. At start-up C2 compiled the loops
     * that read the rank jar's central directory and hash strings, code that runs once; with these, a {@code -np
     * 16 Hello} rank's C2 thread took 10 ms of CPU instead of 21 (async-profiler, 4 × 2 jobs alternating; whole-job
     * pairs are too noisy to show 3 % alone). A loop that stays hot reaches C2 after 120,000 turns instead of 40,000.
     */
    static final List<String> RANK_STARTUP_JIT_OPTIONS = Stream.concat(STARTUP_JIT_OPTIONS.stream(),
            Stream.of("-XX:Tier4InvocationThreshold=15000", "-XX:Tier4MinInvocationThreshold=1800",
                    "-XX:Tier4CompileThreshold=45000", "-XX:Tier4BackEdgeThreshold=120000")).toList();

    private final JobSpec spec;
    private final JobLayout layout;
    private final RankOutput output;
    private final String launcherClasspath;
    private final JobOutcome outcome = new JobOutcome();
    private final Process[] processes;
    /** One per started rank; completes once the supervisor has handled that rank's exit. */
    /** Added by the start loop, read by the shutdown hook too. */
    private final List<CompletableFuture<Void>> exitHandled = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** The threads forwarding the ranks' stdout and stderr; the shutdown hook waits for them too. */
    private final List<Thread> forwarders = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final ScheduledExecutorService supervisor = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "mpirunj-supervisor");
        t.setDaemon(true);
        return t;
    });
    private final long stopGraceMs = RuntimeConfig.longProperty(STOP_GRACE_MS_PROP, STOP_GRACE_MS, 0);
    private final ClassDataArchive archive;
    private volatile RendezvousServer server;
    /** The emulated fabric's arbiter ({@code --fabric-params}), or null. */
    private volatile io.mpirunj.runtime.fabric.ArbiterService fabricArbiter;
    private volatile boolean stopping;
    private volatile long startNs;
    /** How many rank JVMs may be starting at once, read once per job. */
    private final int maxStarting = maxStarting();
    /** The ranks' rendezvous timeout ({@link #rendezvousTimeoutMs(JobSpec, int)}), or null for the ranks' default. */
    private final String rendezvousTimeoutMs;
    /** Permits to start a rank JVM; a rank returns its permit when it registers or ends. */
    private final Semaphore startPermits = new Semaphore(maxStarting);
    /** 1 while rank r holds a start permit. */
    private final AtomicIntegerArray holdsPermit;
    /** Remote ranks lost (supervisor thread only): rank to reason, and the exit code to report. */
    private final Map<Integer, String> lostRanks = new TreeMap<>();
    private final Map<Integer, Integer> lostCodes = new LinkedHashMap<>();
    private final boolean[] nodeLossPending;
    /**
     * Judges, from the rendezvous and the process exits (supervisor thread only), a rank that ended with status 0: fine
     * once it said goodbye ({@code Mpi.finish}), else it fails the job (the other ranks would wait for it forever).
     * The same judge serves ranks on this host, on other hosts (their launch agent's exit is theirs) and, from the
     * rendezvous alone, Slurm's direct launch.
     */
    private final RankDepartures departures;

    /**
     * @param launcherClasspath the classpath that holds the runtime, the collectives, their libraries
     *     and {@link RankMain} (normally this JVM's own {@code java.class.path})
     */
    ProcessJob(JobSpec spec, RankOutput output, String launcherClasspath) {
        this(spec, JobLayout.local(spec.size()), output, launcherClasspath);
    }

    /** A job placed by {@code layout}; ranks on other hosts start through its launch agent. */
    ProcessJob(JobSpec spec, JobLayout layout, RankOutput output, String launcherClasspath) {
        if (layout.placement().size() != spec.size()) {
            throw new IllegalArgumentException("placement of " + layout.placement().size() + " ranks for a job of "
                    + spec.size());
        }
        this.spec = spec;
        this.layout = layout;
        this.departures = RankDepartures.withProcessExits(spec.size(), supervisor, (rank, reason) -> {
            if (!stopping && !outcome.failed()) {
                failJob(rank, ExitCodes.FAILED, reason, false);
            }
        });
        this.holdsPermit = new AtomicIntegerArray(spec.size());
        this.nodeLossPending = new boolean[layout.placement().hosts().size()];
        this.output = output;
        this.launcherClasspath = launcherClasspath;
        this.processes = new Process[spec.size()];
        this.archive = ClassDataArchive.forRanks(launcherClasspath, System.getenv());
        this.rendezvousTimeoutMs = rendezvousTimeoutMs(spec, maxStarting);
    }

    /**
     * The ranks' {@link JobEnvironment#RENDEZVOUS_TIMEOUT_MS}: the user's ({@code -x}, else the launcher's
     * environment, said to every rank as ranks on other hosts do not inherit it); else, when the ranks start in
     * batches, the default plus 2 s a batch (the first ranks wait for the last ones to register); else null.
     */
    private static String rendezvousTimeoutMs(JobSpec spec, int maxStarting) {
        String user = spec.env().getOrDefault(JobEnvironment.RENDEZVOUS_TIMEOUT_MS,
                System.getenv(JobEnvironment.RENDEZVOUS_TIMEOUT_MS));
        if (user != null || spec.size() <= maxStarting) {
            return user;
        }
        long batches = (spec.size() + maxStarting - 1) / maxStarting;
        return Long.toString(Math.min(Integer.MAX_VALUE,
                ProcessBootstrap.RENDEZVOUS_TIMEOUT_MS_DEFAULT + batches * 2_000L));
    }

    /** The {@code java} executable of this JVM. */
    static String javaExecutable() {
        return ProcessHandle.current().info().command()
                .filter(c -> Files.isExecutable(Path.of(c)))
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /** The command line of every rank (identical: identity is in the environment). */
    List<String> rankCommand() {
        return rankCommand(spec, launcherClasspath, javaExecutable(), List.of());
    }

    /**
     * How many rank JVMs start at once: twice the cores, at least 4 ({@link #MAX_STARTING_PROP}).
     * Each JVM start is CPU-heavy; starting hundreds at once starves them all (and the launcher).
     */
    static int maxStarting() {
        return RuntimeConfig.intProperty(MAX_STARTING_PROP, Math.max(4, 2 * Runtime.getRuntime().availableProcessors()), 1);
    }

    /** The command line of a rank on another host: its own {@code java}, no local class-data archive. */
    List<String> remoteRankCommand() {
        String java = System.getenv(REMOTE_JAVA_ENV);
        return rankCommand(spec, launcherClasspath, java == null || java.isBlank() ? "java" : java.strip(), List.of());
    }

    /** The command line of a rank of {@code spec} run with {@code java}; {@code srun} launches share it. */
    static List<String> rankCommand(JobSpec spec, String launcherClasspath, String java,
            List<String> extraJvmOptions) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.add("-Xshare:auto");
        if (spec.startupJit()) {
            cmd.addAll(RANK_STARTUP_JIT_OPTIONS);
        }
        // the launcher's level (-v: info, else error), as ranks as threads log: without -v the runtime's warnings (a
        // peer lost while the launcher stops the job, a fallback) are noise beside the launcher's own report; the
        // options after it (the launcher's rank JVM options, -J) may set another
        cmd.add(rankLogLevel(spec.verbose()));
        cmd.addAll(extraJvmOptions);
        cmd.addAll(rankJvmOptions());
        cmd.addAll(spec.jvmArgs());
        String userCp = UserClasspath.join(spec.userClasspath());
        String cp = launcherClasspath;
        if (!userCp.isEmpty()) {
            cp = cp.isEmpty() ? userCp : cp + File.pathSeparator + userCp;
        }
        cmd.add("-cp");
        cmd.add(cp);
        cmd.add(RankMain.class.getName());
        cmd.add(spec.mainClass());
        cmd.addAll(spec.args());
        return cmd;
    }

    /** The rank JVM's log level option: the launcher's ({@link MpirunJ#LOG_LEVEL_PROP}). */
    static String rankLogLevel(boolean verbose) {
        return "-D" + MpirunJ.LOG_LEVEL_PROP + "=" + MpirunJ.logLevel(verbose);
    }

    /** The options of {@link #RANK_JVM_OPTIONS_PROP} (none if it is unset). */
    static List<String> rankJvmOptions() {
        String options = System.getProperty(RANK_JVM_OPTIONS_PROP, "").strip();
        return options.isEmpty() ? List.of() : List.of(options.split("\\s+"));
    }

    /** Runs the job to the end and returns its exit status. */
    int run() {
        Thread hook = new Thread(this::onLauncherStopped, "mpirunj-shutdown");
        try {
            String token = JobToken.random();
            boolean remote = layout.hasRemoteRanks();
            server = new RendezvousServer(spec.size(), token, remote ? BIND_ALL : BIND_HOST, new Listener());
            if (remote) {
                server.dropSilentRanks(); // a node can vanish without a reset or an exit
            }
            InetSocketAddress addr = server.address();
            output.onConsoleClosed(() -> {
                try {
                    supervisor.execute(this::onConsoleClosed);
                } catch (java.util.concurrent.RejectedExecutionException jobOver) {
                    // the job has ended: nothing left to stop
                }
            });
            io.mpirunj.runtime.fabric.FabricEmulation emulation = io.mpirunj.runtime.fabric.FabricEmulation
                    .fromEnvironment(io.mpirunj.runtime.RuntimeConfig.from(spec.env()), spec.env(), spec.size());
            if (emulation != null) {
                if (remote) {
                    throw new IOException("--fabric-params: the emulated fabric needs every rank on this host");
                }
                fabricArbiter = new io.mpirunj.runtime.fabric.ArbiterService(emulation);
            }
            String rendezvous = (remote ? layout.rendezvousHost() : addr.getAddress().getHostAddress()) + ":"
                    + addr.getPort();
            archive.ensure(javaExecutable(), output, spec.verbose());
            String ldLibraryPath = ClassDataArchive.LD_LIBRARY_PATH;
            List<String> cmd = rankCommand(spec, archive.rankClasspath(launcherClasspath), javaExecutable(),
                    archive.useOptions(spec.env().getOrDefault(ldLibraryPath, System.getenv(ldLibraryPath))));
            List<String> remoteCmd = remote ? remoteRankCommand() : List.of();
            warnIfOversubscribed();
            if (spec.verbose()) {
                output.launcherError("rendezvous on " + rendezvous + "; starting " + spec.size()
                        + " rank processes, at most " + startPermits.availablePermits() + " at a time: "
                        + String.join(" ", cmd));
                if (remote) {
                    output.launcherError("placement: " + layout.placement().describe() + "; launch agent: "
                            + layout.agent().describe());
                }
                output.launcherError(archive.describe());
            }
            Runtime.getRuntime().addShutdownHook(hook);
            startNs = System.nanoTime();
            if (spec.timeoutMs() > 0) {
                supervisor.schedule(this::onTimeout, spec.timeoutMs(), TimeUnit.MILLISECONDS);
            }
            for (int r = 0; r < spec.size(); r++) {
                startPermits.acquire();
                if (stopping) {
                    break; // a failure or the timeout ended the job: start nothing more
                }
                holdsPermit.set(r, 1);
                Host host = layout.placement().hostOf(r);
                ProcessBuilder pb;
                if (host.isLocal()) {
                    pb = new ProcessBuilder(cmd);
                    pb.environment().putAll(rankEnvironment(r, rendezvous, token));
                    pb.environment().put(LAUNCHER_PID_ENV, Long.toString(ProcessHandle.current().pid()));
                    if (r == 0) {
                        pb.redirectInput(ProcessBuilder.Redirect.INHERIT); // stdin goes to rank 0, as with Open MPI
                    }
                } else {
                    // the node's ranks listen on its address; the agent carries the environment over
                    Map<String, String> env = rankEnvironment(r, rendezvous, token);
                    env.put(JobEnvironment.ADVERTISE_HOST, host.name());
                    env.put(JobEnvironment.LAUNCHER_SILENCE_MS, Long.toString(LAUNCHER_SILENCE_MS));
                    pb = new ProcessBuilder(layout.agent().command(host.name(), env, remoteCmd));
                }
                try {
                    processes[r] = pb.start();
                } catch (IOException e) {
                    String where = host.isLocal() ? "" : " on " + host.name() + " (launch agent "
                            + layout.agent().describe() + ")";
                    output.launcherError("cannot start rank " + r + where + ": " + e.getMessage());
                    outcome.fail(r, 1, "cannot start: " + e.getMessage());
                    stopOthers(r);
                    break;
                }
                processes[r].getOutputStream().close(); // the other ranks read no stdin (rank 0's: inherited)
                forwarders.add(forward(r, processes[r].getInputStream(), false));
                forwarders.add(forward(r, processes[r].getErrorStream(), true));
                int rank = r;
                exitHandled.add(processes[r].onExit()
                        .thenAcceptAsync(p -> onExit(rank, p.exitValue()), supervisor));
            }
            waitForAll();
            drainOutput();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            outcome.fail(-1, ExitCodes.INTERRUPTED, "launcher interrupted");
            killAll();
        } catch (IOException | RuntimeException e) {
            output.launcherError("cannot start the job: " + e.getMessage());
            outcome.fail(-1, ExitCodes.FAILED, String.valueOf(e.getMessage()));
            killAll();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException | IllegalArgumentException shuttingDownOrNeverAdded) {
                // fine either way
            }
            RendezvousServer s = server;
            if (s != null) {
                s.close();
            }
            io.mpirunj.runtime.fabric.ArbiterService a = fabricArbiter;
            if (a != null) {
                a.close();
            }
            supervisor.shutdownNow();
            output.flush();
        }
        int code = outcome.exitCode();
        if (spec.verbose()) {
            output.launcherError("job ended with exit status " + code);
        }
        return code;
    }

    /** What the launcher adds to rank {@code rank}'s environment. */
    private Map<String, String> rankEnvironment(int rank, String rendezvous, String token) {
        Map<String, String> env = new LinkedHashMap<>();
        String size = Integer.toString(spec.size());
        String r = Integer.toString(rank);
        env.putAll(spec.env()); // -x first: the identity below is the launcher's to set
        env.put(JobEnvironment.RENDEZVOUS, rendezvous);
        io.mpirunj.runtime.fabric.ArbiterService arbiter = fabricArbiter;
        if (arbiter != null) {
            env.put(io.mpirunj.runtime.fabric.FabricEmulation.ARBITER_ENV, arbiter.address());
        }
        env.put(JobEnvironment.JOB_TOKEN, token);
        env.put(JobEnvironment.WORLD_RANK, r);
        env.put(JobEnvironment.WORLD_SIZE, size);
        env.put(JobEnvironment.LOCAL_RANK, Integer.toString(layout.placement().localRank(rank)));
        env.put(JobEnvironment.LOCAL_SIZE, Integer.toString(layout.placement().localSize(rank)));
        if (rendezvousTimeoutMs != null) {
            env.put(JobEnvironment.RENDEZVOUS_TIMEOUT_MS, rendezvousTimeoutMs);
        }
        env.put(JobEnvironment.PMI_RANK, r);
        env.put(JobEnvironment.PMI_SIZE, size);
        if (spec.output().tag()) {
            env.put(JobEnvironment.TAGGED_OUTPUT, "1");
        }
        if (spec.coll() != null) {
            env.put(CollectiveRegistry.ENV_NAME, spec.coll());
        } else if (System.getProperty(CollectiveRegistry.PROP_NAME) != null) {
            env.put(CollectiveRegistry.ENV_NAME, System.getProperty(CollectiveRegistry.PROP_NAME));
        }
        return env;
    }

    /** Far more local rank JVMs than cores: say so (they start paced, then compete for the CPU). */
    private void warnIfOversubscribed() {
        int cores = Runtime.getRuntime().availableProcessors();
        int local = 0;
        for (int r = 0; r < spec.size(); r++) {
            if (layout.placement().hostOf(r).isLocal()) {
                local++;
            }
        }
        if (local > RANKS_PER_CORE_WARNING * cores) {
            output.launcherError("warning: " + local + " rank JVMs on " + cores + (cores == 1 ? " core" : " cores")
                    + "; starting at most " + maxStarting + " at a time (--threads runs ranks as threads of one JVM)");
        }
    }

    /** Rank {@code rank} no longer needs its start permit (it registered, or it ended). */
    private void releasePermit(int rank) {
        if (holdsPermit.compareAndSet(rank, 1, 0)) {
            startPermits.release();
        }
    }

    private Thread forward(int rank, InputStream in, boolean stderr) {
        Thread t = new Thread(() -> {
            // interactive: rank 0's stdout (rank 0 reads stdin: its prompts, its progress bars)
            LineSplitter lines = new LineSplitter(RankOutput.RANK_TEXT,
                    rank == 0 && !stderr ? output.idleScheduler() : null,
                    (b, off, len, endsLine) -> output.bytes(rank, stderr, b, off, len, endsLine));
            byte[] buf = new byte[8192];
            try (in) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    lines.write(buf, 0, n);
                }
            } catch (IOException e) {
                // the pipe closed under us: the process is gone
            }
            lines.finish(output.endsUnfinishedLines());
        }, "rank-" + rank + (stderr ? "-stderr" : "-stdout"));
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Waits until every started rank has ended and its exit has been handled. */
    private void waitForAll() throws InterruptedException {
        for (CompletableFuture<Void> f : exitHandled) {
            try {
                f.get();
            } catch (ExecutionException e) {
                output.launcherError("internal error handling a rank's exit: " + e.getCause());
            }
        }
        // A remote rank that ended badly is reported after a window (its node's other ranks may follow).
        // Once every rank has ended there is nothing to wait for: report now, or the job would end 0.
        try {
            supervisor.submit(() -> {
                for (int node = 0; node < nodeLossPending.length; node++) {
                    if (nodeLossPending[node]) {
                        reportNodeLoss(node);
                    }
                }
            }).get();
        } catch (ExecutionException e) {
            output.launcherError("internal error reporting lost ranks: " + e.getCause());
        }
    }

    /** On the supervisor thread: a rank process ended with {@code code}. */
    private void onExit(int rank, int code) {
        releasePermit(rank);
        if (spec.verbose()) {
            output.launcherError("rank " + rank + " exited with status " + code);
        }
        if (code == 0) {
            onExitWithZero(rank);
            return;
        }
        String reason = "rank " + rank + " exited with status " + code + describeSignal(code);
        if (!layout.placement().hostOf(rank).isLocal()) {
            onRemoteRankLost(rank, code, reason);
            return;
        }
        failJob(rank, code, reason, spec.verbose()); // -v said it above
    }

    /**
     * On the supervisor thread: a rank ended with status 0, on this host or (its launch agent's status) on another.
     * Fine once it said goodbye ({@code Mpi.finish}); else the judge fails the job ({@link RankDepartures}).
     */
    private void onExitWithZero(int rank) {
        if (stopping || outcome.failed()) {
            return;
        }
        departures.exitedWithZero(rank);
    }

    /**
     * On the supervisor thread: ends the job for {@code rank}'s failure (the first failure wins): says why (unless
     * {@code said}), tells the other ranks, stops them.
     */
    private void failJob(int rank, int code, String reason, boolean said) {
        if (outcome.fail(rank, code, reason)) {
            if (!said) {
                output.launcherError(reason);
            }
            reportRanksNotJoined(rank, code);
            RendezvousServer s = server;
            if (s != null) {
                try {
                    s.notifyRankFailed(rank, reason);
                } catch (RuntimeException e) {
                    output.launcherError("cannot tell the other ranks that rank " + rank + " failed: " + e);
                }
            }
            stopOthers(rank);
        }
    }

    /**
     * On the supervisor thread, as {@code failed} fails the job: if it had joined the job and others had not, it
     * failed in {@code Mpi.init} waiting for them (the rendezvous timed out, or it was stopped there), and its own
     * line cannot say which ranks it waited for: name them.
     */
    private void reportRanksNotJoined(int failed, int code) {
        List<Integer> missing = departures.notJoined();
        // status 1: it threw (as from the rendezvous's timeout); a signal or an exit code is its own story
        if (code == ExitCodes.FAILED && !missing.isEmpty() && !missing.contains(failed)) {
            output.launcherError("when rank " + failed + " failed, " + ThreadJob.ranks(missing)
                    + " had not joined the job (no Mpi.init from " + (missing.size() == 1 ? "it" : "them") + " yet)");
        }
    }

    /**
     * On the supervisor thread: a rank on another host ended badly or went silent. Its node may be
     * gone, so wait {@link #NODE_LOSS_WINDOW_MS} for the node's other ranks, then report them together.
     */
    private void onRemoteRankLost(int rank, int code, String reason) {
        if (stopping || outcome.failed()) {
            return; // stopped by us, or a consequence of the failure that ended the job
        }
        lostRanks.putIfAbsent(rank, reason);
        lostCodes.putIfAbsent(rank, code);
        int node = layout.placement().nodeOf(rank);
        if (!nodeLossPending[node]) {
            nodeLossPending[node] = true;
            supervisor.schedule(() -> reportNodeLoss(node), NODE_LOSS_WINDOW_MS, TimeUnit.MILLISECONDS);
        }
    }

    private void reportNodeLoss(int node) {
        List<Integer> onNode = layout.placement().ranksOn(node);
        List<Integer> lost = new ArrayList<>();
        for (int r : onNode) {
            if (lostRanks.containsKey(r)) {
                lost.add(r);
            }
        }
        if (lost.isEmpty()) {
            return;
        }
        int first = lost.get(0);
        String host = layout.placement().hosts().get(node).name();
        String what;
        String reason;
        if (lost.size() == onNode.size() && onNode.size() > 1) {
            what = "lost node " + host + ": ranks " + Ranges.of(lost);
            reason = what + " (" + lostRanks.get(first) + ")";
        } else if (lost.size() == 1) {
            what = "rank " + first + " on node " + host + " failed";
            reason = lostRanks.get(first) + " (on node " + host + ")";
        } else {
            what = "lost ranks " + Ranges.of(lost) + " on node " + host;
            reason = what + " (" + lostRanks.get(first) + ")";
        }
        int code = lostCodes.get(first) > 0 ? lostCodes.get(first) : ExitCodes.FAILED;
        if (!outcome.fail(first, code, reason)) {
            return;
        }
        output.launcherError(reason);
        RendezvousServer s = server;
        if (s != null) {
            for (int r : lost) {
                try {
                    s.notifyRankFailed(r, what);
                } catch (RuntimeException e) {
                    output.launcherError("cannot tell the other ranks that rank " + r + " is lost: " + e);
                }
            }
        }
        stopOthers(-1);
    }

    private static String describeSignal(int code) {
        if (code > ExitCodes.SIGNAL_BASE && code < ExitCodes.SIGNAL_BASE + 65) {
            int signal = code - ExitCodes.SIGNAL_BASE;
            String name = signal == 9 ? "SIGKILL" : signal == 15 ? "SIGTERM" : signal == 6 ? "SIGABRT"
                    : signal == 11 ? "SIGSEGV" : signal == 2 ? "SIGINT" : "signal " + signal;
            return " (killed by signal " + signal + (name.startsWith("SIG") ? ", " + name : "") + ")";
        }
        return "";
    }

    /**
     * On the supervisor thread: writing to the launcher's stdout failed, nobody reads it (| head ended): the job
     * stops, as Open MPI's mpirun does on SIGPIPE, instead of running on with its output thrown away.
     */
    private void onConsoleClosed() {
        if (!outcome.fail(-1, ExitCodes.STDOUT_CLOSED, RankOutput.CONSOLE_CLOSED)) {
            return;
        }
        output.launcherError(RankOutput.CONSOLE_CLOSED_REPORT);
        notifyAbort(ExitCodes.STDOUT_CLOSED, RankOutput.CONSOLE_CLOSED, "cannot tell the ranks why the job stops");
        stopOthers(-1);
    }

    /**
     * Tells every rank the job is aborted with {@code exitCode} for {@code reason}; if that fails, says so after
     * {@code ifFailed} (null: silently, as when the ranks are signalled next anyway).
     */
    private void notifyAbort(int exitCode, String reason, String ifFailed) {
        RendezvousServer s = server;
        if (s != null) {
            try {
                s.notifyAbort(exitCode, reason);
            } catch (RuntimeException e) {
                if (ifFailed != null) {
                    output.launcherError(ifFailed + ": " + e);
                }
            }
        }
    }

    /** On the supervisor thread: the job's time is up. Reports what every running rank is doing, then stops them. */
    private void onTimeout() {
        if (outcome.failed()) {
            return;
        }
        RendezvousServer s = server;
        String[] activity = s != null ? s.queryStatus(STATUS_QUERY_MS) : new String[spec.size()];
        List<Integer> running = new ArrayList<>();
        for (int r = 0; r < processes.length; r++) {
            if (processes[r] != null && processes[r].isAlive()) {
                running.add(r);
            }
        }
        String limit = formatSeconds(spec.timeoutMs());
        if (!outcome.fail(-1, ExitCodes.TIMEOUT, "timed out after " + limit)) {
            return;
        }
        output.launcherError("the job timed out after " + limit + " (--timeout/" + MpirunJ.TIMEOUT_ENV + "); "
                + running.size() + " of " + spec.size() + " ranks still running:");
        for (int r : running) {
            String a = activity[r] != null ? activity[r] : "no answer (still starting, or too busy to answer)";
            Host host = layout.placement().hostOf(r);
            String where = host.isLocal() ? "pid " + processes[r].pid() : "on " + host.name();
            output.launcherError("  rank " + r + " (" + where + "): " + a);
        }
        output.launcherError("stopping the job; exit status " + ExitCodes.TIMEOUT);
        notifyAbort(ExitCodes.TIMEOUT, "the job timed out after " + limit, "cannot tell the ranks about the timeout");
        stopOthers(-1);
    }

    static String formatSeconds(long ms) {
        return ms % 1000 == 0 ? (ms / 1000) + " s" : String.format(java.util.Locale.ROOT, "%.3f s", ms / 1000.0);
    }

    /** Schedules SIGTERM, then SIGKILL, for every rank but {@code except} that is still running. */
    private void stopOthers(int except) {
        if (stopping) {
            return;
        }
        stopping = true;
        startPermits.release(spec.size()); // wakes the start loop, which then starts nothing more
        supervisor.schedule(() -> terminate(except), stopGraceMs, TimeUnit.MILLISECONDS);
        supervisor.schedule(() -> {
            for (int r = 0; r < processes.length; r++) {
                Process p = processes[r];
                if (p != null && p.isAlive()) {
                    if (spec.verbose()) {
                        output.launcherError("rank " + r + " did not stop; killing it");
                    }
                    p.toHandle().destroyForcibly();
                }
            }
        }, stopGraceMs + KILL_GRACE_MS, TimeUnit.MILLISECONDS);
    }

    /**
     * Shutdown hook: the launcher's JVM is ending under the job (Ctrl-C, SIGTERM). The launcher itself ends the
     * ranks, so their exits are not the job's failure ("rank 1 exited with status 137 (killed by signal 9)" named a
     * rank for what the user did): the job's failure is recorded first.
     */
    private void onLauncherStopped() {
        outcome.fail(-1, ExitCodes.INTERRUPTED, "the launcher was stopped");
        stopping = true;
        startPermits.release(spec.size()); // wakes the start loop, which then starts nothing more
        // first, so that a rank that sees another end meanwhile ends quietly with the abort, not blaming it
        notifyAbort(ExitCodes.INTERRUPTED, "the launcher was stopped", null);
        // SIGTERM first, as Open MPI's mpirun forwards it: the ranks' shutdown hooks run; SIGKILL for what is left
        terminate(-1);
        // the JVM ends when this hook returns: first let the ranks' exits be seen and their output drained
        if (!awaitExitsHandled(KILL_GRACE_MS)) {
            killAll();
            awaitExitsHandled(KILL_GRACE_MS);
        }
        try {
            drainOutput();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** True once every started rank's exit has been handled (or failed to be), false after {@code ms} if not. */
    private boolean awaitExitsHandled(long ms) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        for (CompletableFuture<Void> f : exitHandled) {
            try {
                f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (ExecutionException e) {
                // handled, if badly: that rank has exited
            } catch (java.util.concurrent.TimeoutException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** Waits, at most {@link #DRAIN_MS} in all, until the ranks' output has been forwarded to its end. */
    private void drainOutput() throws InterruptedException {
        long drainDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_MS);
        for (Thread t : forwarders) {
            long leftMs = TimeUnit.NANOSECONDS.toMillis(drainDeadline - System.nanoTime());
            t.join(Math.max(1, leftMs));
        }
    }

    /** SIGTERM to every rank but {@code except} still running (through its handle: its output pipes stay open). */
    private void terminate(int except) {
        for (int r = 0; r < processes.length; r++) {
            Process p = processes[r];
            if (r != except && p != null && p.isAlive()) {
                p.toHandle().destroy();
            }
        }
    }

    /** SIGKILL to every rank still running (through its handle: its output pipes stay open to be drained). */
    private void killAll() {
        for (Process p : processes) {
            if (p != null && p.isAlive()) {
                p.toHandle().destroyForcibly();
            }
        }
    }

    /** Rendezvous events; they may arrive on a network thread, so each only queues work. */
    private final class Listener implements RendezvousServer.Listener {
        @Override
        public void onAbort(int rank, int exitCode, String reason) {
            supervisor.execute(() -> {
                if (outcome.fail(rank, exitCode, reason)) {
                    output.launcherError("rank " + rank + " aborted the job with exit code " + exitCode
                            + (reason == null || reason.isEmpty() ? "" : ": " + reason));
                    notifyAbort(exitCode, reason, "cannot tell the other ranks about the abort");
                    stopOthers(-1);
                }
            });
        }

        @Override
        public void onRankLost(int rank, String reason) {
            supervisor.execute(() -> {
                if (spec.verbose()) {
                    output.launcherError("lost rank " + rank + ": " + reason);
                }
                // with the rank's exit with status 0 (seen before, or within the node-loss window): it left without
                // Mpi.finish; a local rank's other exits say what happened, a remote one may never exit here
                if (!stopping && !outcome.failed()) {
                    departures.closedWithoutGoodbye(rank);
                }
                if (!layout.placement().hostOf(rank).isLocal()) {
                    onRemoteRankLost(rank, ExitCodes.FAILED, "rank " + rank + ": " + reason);
                }
            });
        }

        @Override
        public void onRankRegistered(int rank) {
            releasePermit(rank);
            supervisor.execute(() -> departures.registered(rank));
        }

        @Override
        public void onFinishFence(int rank) {
            supervisor.execute(() -> departures.reachedFinish(rank));
        }

        @Override
        public void onRankFinished(int rank) {
            supervisor.execute(() -> departures.finished(rank));
        }

        @Override
        public void onRefused(String remote, String reason) {
            output.launcherError("refused a connection to the launcher's port from " + remote + ": " + reason);
        }

        @Override
        public void onAllRegistered() {
            if (spec.verbose()) {
                supervisor.execute(() -> output.launcherError("all " + spec.size() + " ranks registered"));
            }
        }
    }
}
