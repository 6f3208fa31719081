package io.mpirunj.launcher;

import io.mpirunj.AbortedException;
import io.mpirunj.RankFailedException;
import io.mpirunj.launcher.hosts.Ranges;
import io.mpirunj.runtime.RankContext;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.fabric.FabricEmulation;
import io.mpirunj.runtime.trace.MessageTrace;
import io.mpirunj.runtime.trace.TracingTransport;
import io.mpirunj.runtime.local.LocalJob;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Runs a job with its ranks as threads of this JVM ({@code mpirun-j --threads}): one {@link LocalJob}
 * of N ranks, one thread {@code rank-R} per rank with the rank's {@link RankContext} bound, the user's
 * classes loaded per rank by a {@link RankClassLoader} (so statics are per rank), and
 * {@code System.out}/{@code System.err} replaced for the duration of the job by streams that route
 * each line by the writing thread's rank.
 *
 * <p>The first rank to fail (an uncaught exception: exit status 1 and a {@code [rank R]} stack trace;
 * {@link AbortedException}, e.g. from {@code Comm.abort}: its exit code) decides the exit status;
 * every other rank is then told (a dead rank: {@link RankContext#onRankFailed}, so what depends on
 * it fails with a {@code RankFailedException} naming it; then {@link RankContext#onJobAborted} for
 * everything else), the threads of its thread group are interrupted, and the launcher waits at most
 * {@link #STOP_GRACE_MS} for them; a rank thread still alive then is stopped forcibly
 * ({@code Thread.stop}, where the JDK still has it), so no rank thread outlives its job. With a
 * time limit ({@code --timeout}) the launcher reports each running rank's current MPI call
 * ({@link RankContext#describeActivity}) and ends the job the same way with
 * {@link ExitCodes#TIMEOUT}.
 *
 * <p>Limitation: a rank calling {@code System.exit} ends the whole JVM and every other rank with it; a shutdown
 * hook then names the rank whose call the JVM exits with (of several ranks calling it at once, the one that runs the
 * hooks) and the ranks that were still running ({@link #reportExitingRank}). The JVM exits with the call's status
 * when the job was complete (no other rank still running short of {@code Mpi.finish}, the caller not between
 * {@code Mpi.init} and {@code Mpi.finish}); else the job failed, and the hook ends the JVM with status 1, as a rank
 * process that exits 0 without {@code Mpi.finish} fails the job: Java 17 gives the hook no way to read the call's
 * status, so a {@code System.exit(0)} in the middle of the job would otherwise end it with 0. A job that had failed
 * already keeps its status; a program in which no rank called {@code Mpi.init} keeps the call's. The hook ends the JVM
 * with {@code Runtime.halt}, so the JVM's other shutdown hooks (the program's own) may not finish, nor
 * {@code deleteOnExit} run.
 */
final class ThreadJob {
    /**
     * How long stopped ranks get to end after the job failed, before they are stopped forcibly;
     * {@link ProcessJob#STOP_GRACE_MS_PROP} overrides it (for the tests that watch the survivors fail).
     */
    static final long STOP_GRACE_MS = 3_000;
    /** How long forcibly stopped rank threads get to end. */
    static final long KILL_GRACE_MS = 1_000;

    /** The rank of the current thread (inherited by threads a rank starts), for output routing. */
    private static final InheritableThreadLocal<Integer> RANK = new InheritableThreadLocal<>();

    private final JobSpec spec;
    private final RankOutput output;
    private final ClassLoader parent;
    private final CollectiveRegistry registry;
    private final JobOutcome outcome = new JobOutcome();
    private final long stopGraceMs = RuntimeConfig.longProperty(ProcessJob.STOP_GRACE_MS_PROP, STOP_GRACE_MS, 0);
    private final RankContext[] contexts;
    private final Thread[] threads;
    private final ThreadGroup[] groups;
    /** Ranks whose main returned before Mpi.init: the job's failure if other ranks call on them. */
    private final java.util.Set<Integer> returnedBeforeInit = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** 1 for each rank whose main has returned or failed (for the System.exit report). */
    private final AtomicIntegerArray ended;

    /** @param registry the collective algorithms, with the job's forced choices already applied */
    ThreadJob(JobSpec spec, RankOutput output, ClassLoader parent, CollectiveRegistry registry) {
        this.spec = spec;
        this.output = output;
        this.parent = parent;
        this.registry = registry;
        this.contexts = new RankContext[spec.size()];
        this.threads = new Thread[spec.size()];
        this.groups = new ThreadGroup[spec.size()];
        this.ended = new AtomicIntegerArray(spec.size());
    }

    /** The rank of the calling thread in the running threads-mode job, or -1. */
    static int currentRank() {
        Integer r = RANK.get();
        return r == null ? RankRoutingStream.NO_RANK : r;
    }

    /** Runs the job to the end and returns its exit status. */
    int run() {
        // The ranks share this JVM's environment: -x settings of the runtime (MPIRUNJ_*) apply on top of it.
        Map<String, String> rankEnv = new HashMap<>(System.getenv());
        rankEnv.putAll(spec.env());
        RuntimeConfig config = RuntimeConfig.from(rankEnv);
        if (spec.coll() != null) {
            config = config.withForcedCollectives(spec.coll());
        }
        config = FabricEmulation.installFromEnvironment(config, rankEnv, spec.size()); // --fabric-params
        java.nio.file.Path traceFile = MessageTrace.fileFrom(rankEnv); // --trace, outside the emulation
        if (traceFile != null) {
            config = TracingTransport.install(config, new MessageTrace(traceFile));
        }
        URL[] urls = UserClasspath.urls(spec.userClasspath());
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        output.onConsoleClosed(this::onConsoleClosed);
        RankRoutingStream routedOut = new RankRoutingStream(oldOut, output, false, RankOutput.RANK_TEXT, spec.size(),
                ThreadJob::currentRank);
        RankRoutingStream routedErr = new RankRoutingStream(oldErr, output, true, RankOutput.RANK_TEXT, spec.size(),
                ThreadJob::currentRank);
        CountDownLatch done = new CountDownLatch(spec.size());
        LocalJob job = new LocalJob(spec.size(), config, this::onAbortRequest, registry);
        System.setOut(routedOut.printStream());
        System.setErr(routedErr.printStream());
        Thread exitReport = new Thread(this::reportExitingRank, "mpirunj-exit-report");
        Runtime.getRuntime().addShutdownHook(exitReport);
        try {
            for (int r = 0; r < spec.size(); r++) {
                contexts[r] = job.context(r);
            }
            if (spec.verbose()) {
                output.launcherError("starting " + spec.size() + " ranks as threads: " + spec.mainClass()
                        + " " + String.join(" ", spec.args()));
            }
            for (int r = 0; r < spec.size(); r++) {
                int rank = r;
                RankClassLoader loader = new RankClassLoader(urls, parent);
                groups[r] = new ThreadGroup("rank-" + r);
                Thread t = new Thread(groups[r], () -> {
                    try {
                        runRank(rank, loader);
                    } finally {
                        ended.set(rank, 1);
                        routedOut.flushRank(rank);
                        routedErr.flushRank(rank);
                        closeQuietly(loader);
                        done.countDown();
                    }
                }, "rank-" + r);
                t.setDaemon(true);
                t.setContextClassLoader(loader);
                threads[r] = t;
            }
            for (Thread t : threads) {
                t.start();
            }
            awaitRanks(done, System.nanoTime());
            joinRankThreads();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(exitReport);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs
            }
            System.setOut(oldOut);
            System.setErr(oldErr);
            job.close();
            output.flush();
        }
        int code = outcome.exitCode();
        if (spec.verbose()) {
            output.launcherError("job ended with exit status " + code);
        }
        return code;
    }

    /**
     * Shutdown hook while the job runs: the JVM is exiting under the ranks, so some thread called
     * {@code System.exit} (or the process got a signal). The thread whose call the JVM exits with runs the
     * hooks ({@code Shutdown.exit} -> {@code Shutdown.runHooks}, waiting for this hook); a thread that called
     * it later waits to enter {@code Shutdown.exit} (BLOCKED at its top) and its status is lost. If the first
     * belongs to a rank's thread group, name that rank, the ranks that were still running (they end with the
     * JVM), and the ranks whose own calls are lost.
     */
    private void reportExitingRank() {
        int caller = -1;
        List<Integer> alsoExiting = new ArrayList<>();
        for (var e : Thread.getAllStackTraces().entrySet()) {
            StackTraceElement[] stack = e.getValue();
            int exit = -1;
            boolean hooks = false;
            for (int i = 0; i < stack.length; i++) {
                if (stack[i].getClassName().equals("java.lang.Shutdown")) {
                    hooks |= stack[i].getMethodName().equals("runHooks");
                    if (stack[i].getMethodName().equals("exit")) {
                        exit = i;
                        break;
                    }
                }
            }
            int rank = exit >= 0 ? rankOfGroup(e.getKey().getThreadGroup()) : -1;
            if (rank >= 0 && hooks) {
                caller = rank;
            } else if (rank >= 0) {
                alsoExiting.add(rank);
            }
        }
        if (caller < 0) {
            return; // a thread of no rank (or a signal) ends the JVM
        }
        List<Integer> running = new ArrayList<>();
        for (int r = 0; r < ended.length(); r++) {
            if (r != caller && ended.get(r) == 0 && !alsoExiting.contains(r)) {
                running.add(r);
            }
        }
        java.util.Collections.sort(alsoExiting);
        RankContext own = contexts[caller];
        boolean callerInitialized = own != null && own.isInitialized();
        boolean callerMidJob = callerInitialized && !own.isFinished();
        // cut short: a rank still running short of Mpi.finish, or the caller's own; never a program without MPI
        boolean cutShort = (callerMidJob || running.stream().anyMatch(r -> contexts[r] == null
                || !contexts[r].isFinished())) && (callerInitialized || anyOtherInitialized(caller));
        // a job that failed already (--timeout, an abort, a rank's failure) keeps its status
        int status = !cutShort ? -1 : outcome.failed() ? outcome.exitCode() : ExitCodes.FAILED;
        output.launcherError("rank " + caller + " called System.exit"
                + (callerMidJob ? " between Mpi.init and Mpi.finish" : "") + ", which ends every rank in --threads mode "
                + (!cutShort ? "(the job exits with its status)" : outcome.failed()
                        ? "(the job had failed already: it exits with status " + status + ")"
                        : "(the job fails with status 1: the status given to System.exit cannot be read here)")
                + (running.isEmpty() ? "" : ", while " + ranks(running) + (running.size() == 1 ? " was" : " were")
                        + " still running")
                + (alsoExiting.isEmpty() ? "" : "; " + ranks(alsoExiting) + " also called it (status lost)"));
        output.flush();
        if (cutShort) {
            // the only way to change the status from a shutdown hook; the JVM's other hooks are cut off with it
            Runtime.getRuntime().halt(status);
        }
    }

    /** "rank 3" or "ranks 0, 2-4": ascending {@code ranks}, runs of consecutive ones as ranges ({@link Ranges}). */
    static String ranks(List<Integer> ranks) {
        return (ranks.size() == 1 ? "rank " : "ranks ") + Ranges.of(ranks);
    }

    /** The rank whose thread group is {@code g} or one of its ancestors, or -1. */
    private int rankOfGroup(ThreadGroup g) {
        for (; g != null; g = g.getParent()) {
            for (int r = 0; r < groups.length; r++) {
                if (groups[r] == g) {
                    return r;
                }
            }
        }
        return -1;
    }

    private void awaitRanks(CountDownLatch done, long startNs) {
        boolean interrupted = false;
        long deadlineNs = spec.timeoutMs() > 0 ? startNs + TimeUnit.MILLISECONDS.toNanos(spec.timeoutMs()) : 0;
        try {
            while (true) {
                try {
                    if (done.await(50, TimeUnit.MILLISECONDS)) {
                        return;
                    }
                    if (deadlineNs != 0 && System.nanoTime() - deadlineNs >= 0 && !outcome.failed()) {
                        onTimeout();
                    }
                    if (outcome.failed()) {
                        if (!done.await(stopGraceMs, TimeUnit.MILLISECONDS)) {
                            stopForcibly(done);
                        }
                        return;
                    }
                } catch (InterruptedException e) {
                    // the launcher itself is being stopped: fail the job so every rank ends
                    interrupted = true;
                    if (outcome.fail(-1, ExitCodes.INTERRUPTED, "launcher interrupted")) {
                        abortOthers(-1, ExitCodes.INTERRUPTED, "launcher interrupted");
                    }
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Rank threads that have counted down are ending; wait (briefly) until they have, so none outlives run(). */
    private void joinRankThreads() {
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KILL_GRACE_MS);
        try {
            for (Thread t : threads) {
                long leftMs = TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime());
                if (t != null && leftMs > 0) {
                    t.join(leftMs);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Writing to the launcher's stdout failed, nobody reads it: the job stops ({@link RankOutput#CONSOLE_CLOSED}). */
    private void onConsoleClosed() {
        if (outcome.fail(-1, ExitCodes.STDOUT_CLOSED, RankOutput.CONSOLE_CLOSED)) {
            output.launcherError(RankOutput.CONSOLE_CLOSED_REPORT);
            abortOthers(-1, ExitCodes.STDOUT_CLOSED, RankOutput.CONSOLE_CLOSED);
        }
    }

    /** The job's time is up: reports what every running rank is doing and aborts the job. */
    private void onTimeout() {
        String limit = ProcessJob.formatSeconds(spec.timeoutMs());
        List<String> report = new ArrayList<>();
        for (int r = 0; r < threads.length; r++) {
            if (threads[r].isAlive()) {
                report.add("  rank " + r + ": " + activity(r));
            }
        }
        if (!outcome.fail(-1, ExitCodes.TIMEOUT, "timed out after " + limit)) {
            return;
        }
        output.launcherError("the job timed out after " + limit + " (--timeout/" + MpirunJ.TIMEOUT_ENV + "); "
                + report.size() + " of " + spec.size() + " ranks still running:");
        report.forEach(output::launcherError);
        output.launcherError("stopping the job; exit status " + ExitCodes.TIMEOUT);
        abortOthers(-1, ExitCodes.TIMEOUT, "the job timed out after " + limit);
    }

    /** What rank {@code r} is doing, in one line. */
    private String activity(int r) {
        RankContext ctx = contexts[r];
        if (ctx != null && ctx.isInitialized()) {
            return ctx.describeActivity();
        }
        for (StackTraceElement f : threads[r].getStackTrace()) {
            if (io.mpirunj.runtime.comm.CallTracker.isUserClass(f.getClassName())) {
                return "has not called Mpi.init, at " + f;
            }
        }
        return "has not called Mpi.init";
    }

    /** Rank threads still alive after the grace: stop them (Thread.stop) so none outlives the job. */
    private void stopForcibly(CountDownLatch done) throws InterruptedException {
        for (int r = 0; r < threads.length; r++) {
            if (threads[r].isAlive()) {
                output.launcherError("rank " + r + " did not stop within " + stopGraceMs
                        + " ms of the job failing; stopping its thread forcibly");
                forceStop(threads[r]);
            }
        }
        if (!done.await(KILL_GRACE_MS, TimeUnit.MILLISECONDS)) {
            for (int r = 0; r < threads.length; r++) {
                if (threads[r].isAlive()) {
                    output.launcherError("rank " + r + " cannot be stopped; abandoning its thread");
                }
            }
        }
    }

    @SuppressWarnings({"deprecation", "removal"})
    private static void forceStop(Thread t) {
        try {
            t.stop();
        } catch (UnsupportedOperationException | SecurityException e) {
            t.interrupt(); // newer JDKs: nothing stronger exists
        }
    }

    private void runRank(int rank, ClassLoader loader) {
        RANK.set(rank);
        RankContext ctx = contexts[rank];
        RankContext.bindToCurrentThread(ctx);
        try {
            Class<?> c = Class.forName(spec.mainClass(), true, loader);
            Method main = UserClasspath.mainMethod(c);
            main.invoke(null, (Object) spec.argsArray());
            if (!ctx.isInitialized()) {
                // as a rank process that ends before Mpi.init: it fails the job if other ranks use MPI (now, or when
                // their first call on it fails: onRankError); in any case what depends on it fails, naming it
                returnedBeforeInit.add(rank);
                if (anyOtherInitialized(rank)) {
                    failJob(rank, beforeInitReason(rank) + OTHERS_CALLED_INIT);
                } else {
                    failOthers(rank, beforeInitReason(rank));
                }
            } else if (!ctx.isFinished()) {
                failJob(rank, "rank " + rank + "'s " + RankMain.RETURNED_WITHOUT_FINISH);
            }
        } catch (InvocationTargetException e) {
            onRankError(rank, e.getCause() != null ? e.getCause() : e);
        } catch (Throwable t) {
            onRankError(rank, t);
        } finally {
            RankContext.bindToCurrentThread(null);
            RANK.remove();
        }
    }

    /** The job's first failure, {@code rank}'s for {@code reason} (said once): the other ranks' calls end. */
    private void failJob(int rank, String reason) {
        if (outcome.fail(rank, ExitCodes.FAILED, reason)) {
            output.launcherError(reason);
            failOthers(rank, reason);
            abortOthers(rank, ExitCodes.FAILED, reason);
        }
    }

    /** Why a rank that returned before Mpi.init fails the job (as a rank process's verdict says it). */
    private static final String OTHERS_CALLED_INIT = ", while other ranks called it: they cannot start without it";

    private static String beforeInitReason(int rank) {
        return "rank " + rank + " returned from main before calling Mpi.init";
    }

    private boolean anyOtherInitialized(int rank) {
        for (int r = 0; r < contexts.length; r++) {
            if (r != rank && contexts[r] != null && contexts[r].isInitialized()) {
                return true;
            }
        }
        return false;
    }

    private void onRankError(int rank, Throwable t) {
        AbortedException a = RankMain.causeOf(t, AbortedException.class);
        if (a != null) {
            if (outcome.fail(rank, a.exitCode(), a.getMessage())) {
                output.launcherError("rank " + rank + " aborted the job with exit code " + a.exitCode() + ": "
                        + a.getMessage());
                abortOthers(rank, a.exitCode(), "rank " + rank + " aborted: " + a.getMessage());
            } else if (spec.verbose()) {
                output.launcherError("rank " + rank + " stopped: " + a.getMessage());
            }
            return;
        }
        RankFailedException f = RankMain.causeOf(t, RankFailedException.class);
        if (f != null && returnedBeforeInit.contains(f.failedRank())) {
            // its return is the cause, not this rank's call on it
            failJob(f.failedRank(), beforeInitReason(f.failedRank()) + OTHERS_CALLED_INIT);
            return;
        }
        if (outcome.fail(rank, ExitCodes.FAILED, String.valueOf(t))) {
            output.stackTrace(rank, t);
            // the launcher's own line, as for a rank process ("rank 1 exited with status 1")
            output.launcherError("rank " + rank + " failed: " + t + " (the job exits with status " + ExitCodes.FAILED
                    + ")");
            failOthers(rank, "rank " + rank + " failed: " + t);
            abortOthers(rank, ExitCodes.FAILED, "rank " + rank + " failed: " + t);
        } else if (spec.verbose()) {
            output.stackTrace(rank, t);
        }
    }

    /** JobControl for every rank: {@code Comm.abort} on some rank ends the job with its code. */
    private void onAbortRequest(int worldRank, int exitCode, String reason) {
        if (outcome.fail(worldRank, exitCode, reason)) {
            output.launcherError("rank " + worldRank + " aborted the job with exit code " + exitCode
                    + (reason == null || reason.isEmpty() ? "" : ": " + reason));
            abortOthers(worldRank, exitCode, "rank " + worldRank + " called abort(" + exitCode + ")");
        }
    }

    /** Tells every rank but {@code dead} that it died: what depends on it fails, naming it. */
    private void failOthers(int dead, String reason) {
        for (int r = 0; r < contexts.length; r++) {
            if (r != dead && contexts[r] != null) {
                try {
                    contexts[r].onRankFailed(dead, new io.mpirunj.MpiException(reason));
                } catch (RuntimeException e) {
                    if (spec.verbose()) {
                        output.launcherError("telling rank " + r + " about rank " + dead + ": " + e);
                    }
                }
            }
        }
    }

    /** Fails every pending and later operation of every rank but {@code except}, and interrupts them. */
    private void abortOthers(int except, int exitCode, String reason) {
        for (int r = 0; r < contexts.length; r++) {
            if (r == except || contexts[r] == null) {
                continue;
            }
            try {
                contexts[r].onJobAborted(exitCode, reason);
            } catch (RuntimeException e) {
                if (spec.verbose()) {
                    output.launcherError("aborting rank " + r + ": " + e);
                }
            }
            if (groups[r] != null) {
                groups[r].interrupt(); // the rank thread and the threads it started
            }
        }
    }

    private static void closeQuietly(RankClassLoader loader) {
        try {
            loader.close();
        } catch (IOException ignored) {
            // nothing useful to do
        }
    }
}
