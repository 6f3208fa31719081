package io.mpirunj.launcher;

import io.mpirunj.AbortedException;
import io.mpirunj.Mpi;
import io.mpirunj.runtime.RankContext;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.local.LocalJob;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs a job with its ranks as threads of this JVM ({@code mpirun-j --threads}): one {@link LocalJob}
 * of N ranks, one thread {@code rank-R} per rank with the rank's {@link RankContext} bound, the user's
 * classes loaded per rank by a {@link RankClassLoader} (so statics are per rank), and
 * {@code System.out}/{@code System.err} replaced for the duration of the job by streams that route
 * each line by the writing thread's rank.
 *
 * <p>The first rank to fail (an uncaught exception: exit status 1 and a {@code [rank R]} stack trace;
 * {@link AbortedException}, e.g. from {@code Comm.abort}: its exit code) decides the exit status;
 * every other rank is then aborted ({@link RankContext#onJobAborted}) and interrupted, and the
 * launcher waits at most {@link #STOP_GRACE_MS} for them.
 *
 * <p>Limitation: a rank calling {@code System.exit} ends the whole JVM, with that status.
 */
final class ThreadJob {
    /** How long stopped ranks get to end after the job failed. */
    static final long STOP_GRACE_MS = 5_000;

    /** The rank of the current thread (inherited by threads a rank starts), for output routing. */
    private static final InheritableThreadLocal<Integer> RANK = new InheritableThreadLocal<>();

    private final JobSpec spec;
    private final RankOutput output;
    private final ClassLoader parent;
    private final JobOutcome outcome = new JobOutcome();
    private final RankContext[] contexts;
    private final Thread[] threads;

    ThreadJob(JobSpec spec, RankOutput output, ClassLoader parent) {
        this.spec = spec;
        this.output = output;
        this.parent = parent;
        this.contexts = new RankContext[spec.size()];
        this.threads = new Thread[spec.size()];
    }

    /** The rank of the calling thread in the running threads-mode job, or -1. */
    static int currentRank() {
        Integer r = RANK.get();
        return r == null ? RankRoutingStream.NO_RANK : r;
    }

    /** Runs the job to the end and returns its exit status. */
    int run() {
        RuntimeConfig config = RuntimeConfig.from(System.getenv());
        if (spec.coll() != null) {
            config = config.withForcedCollectives(spec.coll());
        }
        URL[] urls = UserClasspath.urls(spec.userClasspath());
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        RankRoutingStream routedOut = new RankRoutingStream(oldOut, output, false, StandardCharsets.UTF_8, spec.size(),
                ThreadJob::currentRank);
        RankRoutingStream routedErr = new RankRoutingStream(oldErr, output, true, StandardCharsets.UTF_8, spec.size(),
                ThreadJob::currentRank);
        CountDownLatch done = new CountDownLatch(spec.size());
        LocalJob job = new LocalJob(spec.size(), config, this::onAbortRequest);
        System.setOut(routedOut.printStream());
        System.setErr(routedErr.printStream());
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
                Thread t = new Thread(() -> {
                    try {
                        runRank(rank, loader);
                    } finally {
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
            awaitRanks(done);
        } finally {
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

    private void awaitRanks(CountDownLatch done) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    if (done.await(50, TimeUnit.MILLISECONDS)) {
                        return;
                    }
                    if (outcome.failed()) {
                        if (!done.await(STOP_GRACE_MS, TimeUnit.MILLISECONDS)) {
                            for (int r = 0; r < threads.length; r++) {
                                if (threads[r].isAlive()) {
                                    output.launcherError("rank " + r + " did not stop within " + STOP_GRACE_MS
                                            + " ms of the job failing; abandoning it");
                                }
                            }
                        }
                        return;
                    }
                } catch (InterruptedException e) {
                    // the launcher itself is being stopped: fail the job so every rank ends
                    interrupted = true;
                    if (outcome.fail(-1, 130, "launcher interrupted")) {
                        abortOthers(-1, 130, "launcher interrupted");
                    }
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
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
            if (Mpi.isInitialized() && !ctx.isFinished() && !outcome.failed()) {
                Mpi.finish();
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

    private void onRankError(int rank, Throwable t) {
        if (t instanceof AbortedException) {
            AbortedException a = (AbortedException) t;
            if (outcome.fail(rank, a.exitCode(), a.getMessage())) {
                output.launcherError("rank " + rank + " aborted the job with exit code " + a.exitCode() + ": "
                        + a.getMessage());
                abortOthers(rank, a.exitCode(), "rank " + rank + " aborted: " + a.getMessage());
            } else if (spec.verbose()) {
                output.launcherError("rank " + rank + " stopped: " + a.getMessage());
            }
            return;
        }
        if (outcome.fail(rank, 1, String.valueOf(t))) {
            output.stackTrace(rank, t);
            abortOthers(rank, 1, "rank " + rank + " failed: " + t);
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
            Thread t = threads[r];
            if (t != null) {
                t.interrupt();
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
