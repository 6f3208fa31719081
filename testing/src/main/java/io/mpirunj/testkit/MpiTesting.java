package io.mpirunj.testkit;

import io.mpirunj.AbortedException;
import io.mpirunj.Comm;
import io.mpirunj.RankFailedException;
import io.mpirunj.runtime.RankContext;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.local.LocalJob;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Unit tests for SPMD code: runs a body on N ranks as threads of the calling JVM (the in-JVM
 * transport, as {@code mpirun-j --threads}) and returns when every rank has finished.
 *
 * <pre>{@code
 * @Test
 * void everyRankGetsTheSum() {
 *     List<Integer> sums = MpiTesting.callRanks(4, world -> {
 *         int[] in = {world.rank() + 1}, out = new int[1];
 *         world.allreduce(Buffer.of(in), Buffer.of(out), Op.SUM);
 *         return out[0];
 *     });
 *     assertEquals(List.of(10, 10, 10, 10), sums);
 * }
 * }</pre>
 *
 * <p>Each rank runs on its own thread, {@code rank-R}, with its rank bound, so code under test may
 * also call {@code Mpi.init(args)}, {@code Mpi.world()} and {@code Mpi.finish()} as a program's
 * {@code main} does. A rank that has not left the job when its body returns leaves it then.
 *
 * <p>Failures never hang the test. When a rank's body throws (a failed assertion, an exception),
 * the other ranks' operations that depend on it fail, as if its process had died; when it calls
 * {@code Comm.abort}, every rank's operations fail. The first such failure is rethrown as an
 * {@link AssertionError} that names the rank, with the original as its cause (failures that only
 * follow from it, {@link RankFailedException}s, are not reported over it). A rank still running
 * after the timeout ({@link #DEFAULT_TIMEOUT} unless given) fails the test with the MPI call each
 * running rank is in.
 *
 * <p>Unlike {@code mpirun-j --threads}, the ranks share the test's classes, so static fields are
 * shared by all ranks: keep per-rank state in locals or objects the body creates. Collective
 * algorithms are chosen as under {@code mpirun-j}: forced ones come from the {@code mpirunj.coll}
 * system property or the {@code MPIRUNJ_COLL} variable, or per communicator with
 * {@link Comm#withCollectives}.
 */
public final class MpiTesting {
    /** How long a run may take when no timeout is given. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    static {
        // the runtime's warnings and errors, not its info lines (the property, set, shows them)
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
    }

    /** The code every rank runs. */
    @FunctionalInterface
    public interface RankBody {
        /**
         * Runs one rank.
         *
         * @param world the rank's world communicator
         * @throws Exception to fail the run (the other ranks then fail what depends on this rank)
         */
        void run(Comm world) throws Exception;
    }

    /**
     * The code every rank runs, returning a result.
     *
     * @param <T> the result type
     */
    @FunctionalInterface
    public interface RankFunction<T> {
        /**
         * Runs one rank.
         *
         * @param world the rank's world communicator
         * @return this rank's result
         * @throws Exception to fail the run (the other ranks then fail what depends on this rank)
         */
        T apply(Comm world) throws Exception;
    }

    private MpiTesting() {
    }

    /**
     * Runs {@code body} on {@code size} ranks and waits for all of them, at most {@link #DEFAULT_TIMEOUT}.
     *
     * @param size the number of ranks, at least 1
     * @param body the code every rank runs
     * @throws AssertionError naming the first rank that failed, or the ranks still running at the timeout
     */
    public static void runRanks(int size, RankBody body) {
        runRanks(size, DEFAULT_TIMEOUT, body);
    }

    /**
     * Runs {@code body} on {@code size} ranks and waits for all of them, at most {@code timeout}.
     *
     * @param size the number of ranks, at least 1
     * @param timeout how long the ranks may take together
     * @param body the code every rank runs
     * @throws AssertionError naming the first rank that failed, or the ranks still running at the timeout
     */
    public static void runRanks(int size, Duration timeout, RankBody body) {
        Objects.requireNonNull(body, "body");
        callRanks(size, timeout, world -> {
            body.run(world);
            return null;
        });
    }

    /**
     * Runs {@code body} on {@code size} ranks, at most {@link #DEFAULT_TIMEOUT}, and returns each
     * rank's result.
     *
     * @param <T> the result type
     * @param size the number of ranks, at least 1
     * @param body the code every rank runs
     * @return the results, indexed by rank
     * @throws AssertionError naming the first rank that failed, or the ranks still running at the timeout
     */
    public static <T> List<T> callRanks(int size, RankFunction<T> body) {
        return callRanks(size, DEFAULT_TIMEOUT, body);
    }

    /**
     * Runs {@code body} on {@code size} ranks, at most {@code timeout}, and returns each rank's result.
     *
     * @param <T> the result type
     * @param size the number of ranks, at least 1
     * @param timeout how long the ranks may take together
     * @param body the code every rank runs
     * @return the results, indexed by rank (an unmodifiable list; it may hold nulls)
     * @throws AssertionError naming the first rank that failed, or the ranks still running at the timeout
     */
    public static <T> List<T> callRanks(int size, Duration timeout, RankFunction<T> body) {
        if (size < 1) {
            throw new IllegalArgumentException("size=" + size + " (expected: a number of ranks >= 1)");
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout=" + timeout + " (expected: > 0)");
        }
        Objects.requireNonNull(body, "body");
        AtomicReferenceArray<Throwable> failures = new AtomicReferenceArray<>(size);
        AtomicReferenceArray<T> results = new AtomicReferenceArray<>(size);
        RankContext[] contexts = new RankContext[size];
        AtomicInteger aborting = new AtomicInteger(-1);
        LocalJob job = new LocalJob(size, RuntimeConfig.from(System.getenv()), (rank, code, reason) -> {
            aborting.compareAndSet(-1, rank);
            for (RankContext c : contexts) {
                if (c.rank() != rank) {
                    c.onJobAborted(code, reason);
                }
            }
        });
        Thread[] threads = new Thread[size];
        try {
            for (int r = 0; r < size; r++) {
                contexts[r] = job.context(r);
            }
            for (int r = 0; r < size; r++) {
                int rank = r;
                threads[r] = new Thread(() -> runRank(contexts, rank, body, results, failures), "rank-" + r);
                threads[r].setDaemon(true);
            }
            for (Thread t : threads) {
                t.start();
            }
            List<String> stuck = join(threads, contexts, timeout);
            int first = aborting.get() >= 0 && failures.get(aborting.get()) != null ? aborting.get()
                    : firstFailure(failures);
            if (!stuck.isEmpty()) {
                AssertionError e = new AssertionError("the ranks did not finish within " + timeout + ":\n  "
                        + String.join("\n  ", stuck));
                if (first >= 0) {
                    e.addSuppressed(failures.get(first));
                }
                throw e;
            }
            if (first >= 0) {
                Throwable cause = failures.get(first);
                throw new AssertionError("rank " + first + " of " + size + " failed: " + cause, cause);
            }
            List<T> out = new ArrayList<>(size);
            for (int r = 0; r < size; r++) {
                out.add(results.get(r));
            }
            return Collections.unmodifiableList(out);
        } finally {
            job.close();
        }
    }

    private static <T> void runRank(RankContext[] contexts, int rank, RankFunction<T> body,
            AtomicReferenceArray<T> results, AtomicReferenceArray<Throwable> failures) {
        RankContext ctx = contexts[rank];
        RankContext.bindToCurrentThread(ctx);
        try {
            ctx.markInitialized();
            results.set(rank, body.apply(ctx.world()));
            ctx.finish();
        } catch (Throwable t) {
            failures.set(rank, t);
            if (!(t instanceof AbortedException)) { // an abort has already told every rank
                for (RankContext other : contexts) {
                    if (other != ctx) {
                        other.onRankFailed(rank, new RuntimeException("rank " + rank + " threw " + t, t));
                    }
                }
            }
        } finally {
            RankContext.bindToCurrentThread(null);
        }
    }

    /** Waits for the threads until the deadline; interrupts and describes those still running. */
    private static List<String> join(Thread[] threads, RankContext[] contexts, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            for (Thread t : threads) {
                long leftMs = (deadline - System.nanoTime()) / 1_000_000;
                if (leftMs > 0) {
                    t.join(leftMs);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<String> stuck = new ArrayList<>();
        List<Thread> running = new ArrayList<>();
        for (int r = 0; r < threads.length; r++) {
            if (threads[r].isAlive()) {
                stuck.add("rank " + r + ": " + contexts[r].describeActivity());
                running.add(threads[r]);
            }
        }
        running.forEach(Thread::interrupt); // only now: an interrupted rank's failure ends the others' waits
        return stuck;
    }

    /** The rank whose failure caused the others': the lowest that did not just see another rank fail. */
    private static int firstFailure(AtomicReferenceArray<Throwable> failures) {
        int consequence = -1;
        for (int r = 0; r < failures.length(); r++) {
            Throwable t = failures.get(r);
            if (t != null && !(t instanceof RankFailedException)) {
                return r;
            }
            if (t != null && consequence < 0) {
                consequence = r;
            }
        }
        return consequence;
    }
}
