package io.mpirunj.benchmarks.osu;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Op;
import java.io.PrintStream;
import java.util.Arrays;

/**
 * The timing loop of OSU's blocking collective benchmarks, with our extra statistics.
 *
 * <p>Per size, as osu_bcast.c: {@code warmup + iterations} times, each participating rank times one
 * call ({@code t_start}, call, {@code t_stop}), then every rank enters a barrier (not in
 * osu_barrier, as OSU). Avg Latency is the
 * mean over ranks of each rank's mean call time; Min and Max are the smallest and largest of those
 * per-rank means (exactly OSU's reductions). Ours: P50 and P99 of every timed call on every
 * participating rank, and Last-Rank Done: per iteration, the time from the start of the collective
 * to the moment the last rank returned from it, averaged over iterations. The start is the root's
 * call for rooted collectives (bcast, multicast: what the papers' t_end measures), and the last
 * rank's call for the others (they cannot complete before every rank has called them). Times on
 * different ranks are compared on rank 0's clock ({@link GlobalClock}).
 *
 * <p>The statistics travel on a duplicate of the world communicator, so they never mix with the
 * measured traffic. Before the first size, {@link OsuOptions#jitWarmup()} untimed calls spread over
 * all sizes, repeated until no rank's JIT compiles ({@link OsuRun#warmUpJit}), let the JIT compile
 * every path (eager and rendezvous, small and large) first, so the first size is not an outlier.
 */
final class CollectiveBench {
    /** Sets up the buffers for one size and returns the call to time. */
    @FunctionalInterface
    interface Sized {
        Runnable prepare(int size);
    }

    private final Comm world;
    private final Comm stats;
    private final OsuOptions options;
    private final OsuBenchmark benchmark;
    private final GlobalClock clock;
    private final boolean participant;

    private CollectiveBench(Comm world, OsuOptions options, boolean participant) {
        this.world = world;
        this.options = options;
        this.benchmark = options.benchmark();
        this.participant = participant;
        this.stats = world.dup();
        this.clock = GlobalClock.sync(stats);
    }

    /**
     * Runs the whole benchmark on every rank; rank 0 prints the table to {@code out}.
     *
     * @param participant whether this rank calls the collective (false only for ranks outside a
     *     multicast group; rank 0 always takes part)
     * @param extraConditions appended to the conditions line, or null
     */
    static void run(Comm world, OsuOptions options, PrintStream out, boolean participant, String extraConditions,
            Sized op) {
        OsuRun.requireTwoOrMore(world, options.benchmark());
        CollectiveBench bench = new CollectiveBench(world, options, participant);
        try {
            bench.runSizes(out, extraConditions, op);
        } finally {
            bench.stats.close();
        }
    }

    private void runSizes(PrintStream out, String extraConditions, Sized op) {
        String extra = clock.describe() + (extraConditions == null ? "" : "; " + extraConditions);
        OsuRun.printHeader(world, options, OsuRun.conditions(world, options, extra), out);
        OsuRun.warmUpJit(world, options, () -> {
            for (int size : options.sizes()) {
                Runnable call = op.prepare(size);
                for (int i = options.jitWarmupCalls(size); i > 0; i--) {
                    if (participant) {
                        call.run();
                    }
                    separate();
                }
            }
        });
        for (int size : options.sizes()) {
            OsuTable.Row row = measure(size, op.prepare(size));
            if (world.rank() == 0) {
                out.println(OsuTable.row(benchmark, options.full(), row));
                out.flush();
            }
        }
    }

    /** OSU's barrier between iterations (osu_barrier has none: its calls are barriers already). */
    private void separate() {
        if (benchmark != OsuBenchmark.BARRIER) {
            world.barrier();
        }
    }

    /** Times one size; the row is meaningful on rank 0 only. */
    private OsuTable.Row measure(int size, Runnable call) {
        int iters = options.iterations(size);
        int skip = options.warmup(size);
        long[] times = new long[2 * iters]; // global start times, then global end times
        double[] us = new double[iters];
        Arrays.fill(times, Long.MIN_VALUE);
        Arrays.fill(us, Double.NaN);
        for (int i = 0; i < skip + iters; i++) {
            if (participant) {
                long t0 = System.nanoTime();
                call.run();
                long t1 = System.nanoTime();
                if (i >= skip) {
                    int k = i - skip;
                    times[k] = clock.toGlobal(t0);
                    times[iters + k] = clock.toGlobal(t1);
                    us[k] = (t1 - t0) / 1e3;
                }
            }
            separate();
        }
        return summarize(size, iters, times, us);
    }

    private OsuTable.Row summarize(int size, int iters, long[] times, double[] us) {
        double mean = 0;
        if (participant) {
            for (double u : us) {
                mean += u;
            }
            mean /= iters;
        }
        // OSU's three reductions of the per-rank mean (plus the count of participants)
        double[] sum = {participant ? mean : 0, participant ? 1 : 0};
        double[] sumOut = new double[2];
        stats.reduce(Buffer.of(sum), Buffer.of(sumOut), Op.SUM, 0);
        double[] min = {participant ? mean : Double.POSITIVE_INFINITY};
        double[] minOut = new double[1];
        stats.reduce(Buffer.of(min), Buffer.of(minOut), Op.MIN, 0);
        double[] max = {participant ? mean : Double.NEGATIVE_INFINITY};
        double[] maxOut = new double[1];
        stats.reduce(Buffer.of(max), Buffer.of(maxOut), Op.MAX, 0);
        // every sample, for the percentiles
        double[] all = new double[world.rank() == 0 ? iters * world.size() : 0];
        stats.gather(Buffer.of(us), Buffer.of(all), 0);
        // the latest start and end of each iteration over the ranks, on rank 0's clock
        long[] latest = new long[2 * iters];
        stats.reduce(Buffer.of(times), Buffer.of(latest), Op.MAX, 0);
        if (world.rank() != 0) {
            return null;
        }
        double lastDone = 0;
        for (int k = 0; k < iters; k++) {
            long start = benchmark.rooted() ? times[k] : latest[k];
            lastDone += (latest[iters + k] - start) / 1e3;
        }
        lastDone /= iters;
        double[] samples = Arrays.stream(all).filter(d -> !Double.isNaN(d)).sorted().toArray();
        return new OsuTable.Row(benchmark.hasSizes() ? size : -1, sumOut[0] / sumOut[1], minOut[0], maxOut[0], iters,
                Percentiles.of(samples, 50), Percentiles.of(samples, 99), lastDone);
    }
}
