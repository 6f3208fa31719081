package io.mpirunj.testing;

import io.mpirunj.Comm;
import io.mpirunj.runtime.JobControl;
import io.mpirunj.runtime.RankContext;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.local.LocalJob;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Runs an SPMD body on N ranks as threads of this JVM (the in-JVM transport), joins them with a
 * timeout, and rethrows the first failure tagged with its rank. A rank that fails makes the others'
 * pending operations on it fail (as a dead process would), so one bug never hangs the test; a
 * timeout interrupts every rank and reports where each one was.
 */
public final class LocalCluster {
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    /** The code each rank runs. */
    @FunctionalInterface
    public interface RankBody {
        void run(Comm world) throws Exception;
    }

    private LocalCluster() {
    }

    public static void run(int size, RankBody body) {
        run(size, RuntimeConfig.defaults(), DEFAULT_TIMEOUT, body);
    }

    public static void run(int size, RuntimeConfig config, RankBody body) {
        run(size, config, DEFAULT_TIMEOUT, body);
    }

    public static void run(int size, RuntimeConfig config, Duration timeout, RankBody body) {
        run(size, config, null, timeout, body);
    }

    /**
     * As {@link #run(int, RuntimeConfig, Duration, RankBody)}, with the collectives of {@code registry} (null: those
     * the config names).
     */
    public static void run(int size, RuntimeConfig config, CollectiveRegistry registry, Duration timeout,
            RankBody body) {
        AtomicReferenceArray<Throwable> failures = new AtomicReferenceArray<>(size);
        JobControl control = (rank, code, reason) -> { };
        LocalJob job = registry == null ? new LocalJob(size, config, control)
                : new LocalJob(size, config, control, registry);
        Thread[] threads = new Thread[size];
        try {
            for (int r = 0; r < size; r++) {
                RankContext ctx = job.context(r);
                int rank = r;
                threads[r] = new Thread(() -> {
                    RankContext.bindToCurrentThread(ctx);
                    try {
                        body.run(ctx.world());
                        ctx.finish();
                    } catch (Throwable t) {
                        failures.compareAndSet(rank, null, t);
                        for (int o = 0; o < size; o++) {
                            if (o != rank) {
                                job.context(o).onRankFailed(rank, new RuntimeException("rank " + rank + " threw " + t));
                            }
                        }
                    }
                }, "rank-" + r);
                threads[r].setDaemon(true);
                threads[r].start();
            }
            long deadline = System.nanoTime() + timeout.toNanos();
            for (Thread t : threads) {
                long left = deadline - System.nanoTime();
                if (left > 0) {
                    t.join(Math.max(1, left / 1_000_000));
                }
            }
            StringBuilder stuck = new StringBuilder();
            for (Thread t : threads) {
                if (t.isAlive()) {
                    stuck.append("\n").append(t.getName()).append(" still running at:");
                    for (StackTraceElement e : Arrays.copyOf(t.getStackTrace(), 12)) {
                        if (e != null) {
                            stuck.append("\n    at ").append(e);
                        }
                    }
                    t.interrupt();
                }
            }
            Throwable first = null;
            int firstRank = -1;
            for (int r = 0; r < size; r++) {
                if (failures.get(r) != null && (first == null || !(failures.get(r) instanceof io.mpirunj.RankFailedException))) {
                    if (first == null || first instanceof io.mpirunj.RankFailedException) {
                        first = failures.get(r);
                        firstRank = r;
                    }
                }
            }
            if (stuck.length() > 0) {
                AssertionError e = new AssertionError("timed out after " + timeout + stuck);
                if (first != null) {
                    e.addSuppressed(first);
                }
                throw e;
            }
            if (first != null) {
                throw new AssertionError("rank " + firstRank + " of " + size + " failed: " + first, first);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        } finally {
            job.close();
        }
    }
}
