package io.mpirunj.launcher;

import io.mpirunj.runtime.bootstrap.JobEnvironment;
import io.mpirunj.runtime.bootstrap.JobToken;
import io.mpirunj.runtime.bootstrap.RendezvousServer;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs a job with one JVM per rank (the default mode). Starts a {@link RendezvousServer} on loopback
 * with a fresh job token, then N rank JVMs at once:
 *
 * <pre>
 *   java -Xshare:auto -cp &lt;launcher classpath&gt;:&lt;user classpath&gt; io.mpirunj.launcher.RankMain MainClass args...
 * </pre>
 *
 * with the rank's identity and the rendezvous address only in the environment ({@link JobEnvironment}).
 * Each rank's stdout and stderr are forwarded line by line. The exit status is 0 if every rank exits
 * 0, else the first failing rank's status (or the code a rank passed to {@code Comm.abort}); once a
 * rank fails the others are told through the rendezvous server, then stopped: {@code destroy} after
 * {@link #STOP_GRACE_MS}, {@code destroyForcibly} {@link #KILL_GRACE_MS} later.
 */
final class ProcessJob {
    /** Between telling the surviving ranks about a failure and asking them to exit (SIGTERM). */
    static final long STOP_GRACE_MS = 500;
    /** Overrides {@link #STOP_GRACE_MS} (tests use it to watch the survivors fail). */
    static final String STOP_GRACE_MS_PROP = "mpirunj.launcher.stopGraceMs";
    /** How long the timeout report waits for the ranks to say what they are doing. */
    static final long STATUS_QUERY_MS = 1_000;
    /** Environment variable with the launcher's pid: a rank halts if that process disappears. */
    static final String LAUNCHER_PID_ENV = "MPIRUNJ_LAUNCHER_PID";
    /** Between SIGTERM and SIGKILL for ranks that are still alive. */
    static final long KILL_GRACE_MS = 2_000;
    /** How long to wait for a dead rank's output pipes to drain (a grandchild may hold them open). */
    static final long DRAIN_MS = 2_000;
    /** The address the rendezvous server binds; every rank is local in this mode. */
    static final String BIND_HOST = "127.0.0.1";

    private final JobSpec spec;
    private final RankOutput output;
    private final String launcherClasspath;
    private final JobOutcome outcome = new JobOutcome();
    private final Process[] processes;
    /** One per started rank; completes once the supervisor has handled that rank's exit. */
    private final List<CompletableFuture<Void>> exitHandled = new ArrayList<>();
    private final ScheduledExecutorService supervisor = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "mpirunj-supervisor");
        t.setDaemon(true);
        return t;
    });
    private final long stopGraceMs = Long.getLong(STOP_GRACE_MS_PROP, STOP_GRACE_MS);
    private final ClassDataArchive archive;
    private volatile RendezvousServer server;
    private volatile boolean stopping;
    private volatile long startNs;

    /**
     * @param launcherClasspath the classpath that holds the runtime, the collectives, their libraries
     *     and {@link RankMain} (normally this JVM's own {@code java.class.path})
     */
    ProcessJob(JobSpec spec, RankOutput output, String launcherClasspath) {
        this.spec = spec;
        this.output = output;
        this.launcherClasspath = launcherClasspath;
        this.processes = new Process[spec.size()];
        this.archive = ClassDataArchive.forRanks(launcherClasspath, System.getenv());
    }

    /** The {@code java} executable of this JVM. */
    static String javaExecutable() {
        return ProcessHandle.current().info().command()
                .filter(c -> Files.isExecutable(Path.of(c)))
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /** The command line of every rank (identical: identity is in the environment). */
    List<String> rankCommand() {
        return rankCommand(List.of());
    }

    /** The command line of a rank with {@code extraJvmOptions} (e.g. to write the class-data archive). */
    List<String> rankCommand(List<String> extraJvmOptions) {
        List<String> cmd = new ArrayList<>();
        cmd.add(javaExecutable());
        cmd.add("-Xshare:auto");
        cmd.addAll(extraJvmOptions);
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

    /** Runs the job to the end and returns its exit status. */
    int run() {
        Thread hook = new Thread(this::killAll, "mpirunj-shutdown");
        List<Thread> forwarders = new ArrayList<>();
        try {
            String token = JobToken.random();
            server = new RendezvousServer(spec.size(), token, BIND_HOST, new Listener());
            InetSocketAddress addr = server.address();
            String rendezvous = addr.getAddress().getHostAddress() + ":" + addr.getPort();
            archive.ensure(javaExecutable(), output, spec.verbose());
            List<String> cmd = rankCommand(archive.useOptions());
            if (spec.verbose()) {
                output.launcherError("rendezvous on " + rendezvous + "; starting " + spec.size()
                        + " rank processes: " + String.join(" ", cmd));
                output.launcherError(archive.describe());
            }
            Runtime.getRuntime().addShutdownHook(hook);
            startNs = System.nanoTime();
            if (spec.timeoutMs() > 0) {
                supervisor.schedule(this::onTimeout, spec.timeoutMs(), TimeUnit.MILLISECONDS);
            }
            for (int r = 0; r < spec.size(); r++) {
                ProcessBuilder pb = new ProcessBuilder(cmd);
                setEnvironment(pb.environment(), r, rendezvous, token);
                try {
                    processes[r] = pb.start();
                } catch (IOException e) {
                    output.launcherError("cannot start rank " + r + ": " + e.getMessage());
                    outcome.fail(r, 1, "cannot start: " + e.getMessage());
                    stopOthers(r);
                    break;
                }
                processes[r].getOutputStream().close(); // ranks read no stdin
                forwarders.add(forward(r, processes[r].getInputStream(), false));
                forwarders.add(forward(r, processes[r].getErrorStream(), true));
                int rank = r;
                exitHandled.add(processes[r].onExit()
                        .thenAcceptAsync(p -> onExit(rank, p.exitValue()), supervisor));
            }
            waitForAll();
            long drainDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_MS);
            for (Thread t : forwarders) {
                long leftMs = TimeUnit.NANOSECONDS.toMillis(drainDeadline - System.nanoTime());
                t.join(Math.max(1, leftMs));
            }
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
            supervisor.shutdownNow();
            output.flush();
        }
        int code = outcome.exitCode();
        if (spec.verbose()) {
            output.launcherError("job ended with exit status " + code);
        }
        return code;
    }

    private void setEnvironment(Map<String, String> env, int rank, String rendezvous, String token) {
        String size = Integer.toString(spec.size());
        String r = Integer.toString(rank);
        env.putAll(spec.env()); // -x first: the identity below is the launcher's to set
        env.put(LAUNCHER_PID_ENV, Long.toString(ProcessHandle.current().pid()));
        env.put(JobEnvironment.RENDEZVOUS, rendezvous);
        env.put(JobEnvironment.JOB_TOKEN, token);
        env.put(JobEnvironment.WORLD_RANK, r);
        env.put(JobEnvironment.WORLD_SIZE, size);
        env.put(JobEnvironment.LOCAL_RANK, r);
        env.put(JobEnvironment.LOCAL_SIZE, size);
        env.put(JobEnvironment.PMI_RANK, r);
        env.put(JobEnvironment.PMI_SIZE, size);
        if (spec.coll() != null) {
            env.put(CollectiveRegistry.ENV_NAME, spec.coll());
        } else if (System.getProperty(CollectiveRegistry.PROP_NAME) != null) {
            env.put(CollectiveRegistry.ENV_NAME, System.getProperty(CollectiveRegistry.PROP_NAME));
        }
    }

    private Thread forward(int rank, InputStream in, boolean stderr) {
        Thread t = new Thread(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, Charset.defaultCharset()))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    output.line(rank, stderr, line);
                }
            } catch (IOException e) {
                // the pipe closed under us: the process is gone
            }
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
    }

    /** On the supervisor thread: a rank process ended with {@code code}. */
    private void onExit(int rank, int code) {
        if (spec.verbose()) {
            output.launcherError("rank " + rank + " exited with status " + code);
        }
        if (code == 0) {
            return;
        }
        String reason = "rank " + rank + " exited with status " + code + describeSignal(code);
        if (outcome.fail(rank, code, reason)) {
            if (!spec.verbose()) {
                output.launcherError(reason);
            }
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

    private static String describeSignal(int code) {
        if (code > ExitCodes.SIGNAL_BASE && code < ExitCodes.SIGNAL_BASE + 65) {
            int signal = code - ExitCodes.SIGNAL_BASE;
            String name = signal == 9 ? "SIGKILL" : signal == 15 ? "SIGTERM" : signal == 6 ? "SIGABRT"
                    : signal == 11 ? "SIGSEGV" : signal == 2 ? "SIGINT" : "signal " + signal;
            return " (killed by signal " + signal + (name.startsWith("SIG") ? ", " + name : "") + ")";
        }
        return "";
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
            output.launcherError("  rank " + r + " (pid " + processes[r].pid() + "): " + a);
        }
        output.launcherError("stopping the job; exit status " + ExitCodes.TIMEOUT);
        if (s != null) {
            try {
                s.notifyAbort(ExitCodes.TIMEOUT, "the job timed out after " + limit);
            } catch (RuntimeException e) {
                output.launcherError("cannot tell the ranks about the timeout: " + e);
            }
        }
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
        supervisor.schedule(() -> {
            for (int r = 0; r < processes.length; r++) {
                Process p = processes[r];
                if (r != except && p != null && p.isAlive()) {
                    p.destroy();
                }
            }
        }, stopGraceMs, TimeUnit.MILLISECONDS);
        supervisor.schedule(() -> {
            for (int r = 0; r < processes.length; r++) {
                Process p = processes[r];
                if (p != null && p.isAlive()) {
                    if (spec.verbose()) {
                        output.launcherError("rank " + r + " did not stop; killing it");
                    }
                    p.destroyForcibly();
                }
            }
        }, stopGraceMs + KILL_GRACE_MS, TimeUnit.MILLISECONDS);
    }

    private void killAll() {
        for (Process p : processes) {
            if (p != null && p.isAlive()) {
                p.destroyForcibly();
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
                    RendezvousServer s = server;
                    if (s != null) {
                        try {
                            s.notifyAbort(exitCode, reason);
                        } catch (RuntimeException e) {
                            output.launcherError("cannot tell the other ranks about the abort: " + e);
                        }
                    }
                    stopOthers(-1);
                }
            });
        }

        @Override
        public void onRankLost(int rank, String reason) {
            if (spec.verbose()) {
                supervisor.execute(() -> output.launcherError("lost rank " + rank + ": " + reason));
            }
        }

        @Override
        public void onAllRegistered() {
            if (spec.verbose()) {
                supervisor.execute(() -> output.launcherError("all " + spec.size() + " ranks registered"));
            }
        }
    }
}
