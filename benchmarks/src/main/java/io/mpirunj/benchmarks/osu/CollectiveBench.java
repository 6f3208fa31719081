package io.mpirunj.benchmarks.osu;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Op;
import io.mpirunj.runtime.JvmActivity;
import java.io.PrintStream;
import io.mpirunj.collectives.runner.JobModels;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.runtime.RankContext;
import io.mpirunj.runtime.comm.CommImpl;
import io.mpirunj.runtime.spi.CallShape;
import io.mpirunj.runtime.spi.CollRules;
import io.mpirunj.runtime.spi.CollectiveOp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

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
    /** Sets up the buffers for one size and returns the call to time on {@code comm}. */
    @FunctionalInterface
    interface Sized {
        Runnable prepare(Comm comm, int size);
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
            if (options.compare() != null) {
                bench.runCompared(out, extraConditions, op);
            } else {
                bench.runSizes(out, extraConditions, op);
            }
        } finally {
            bench.stats.close();
        }
    }

    private void runSizes(PrintStream out, String extraConditions, Sized op) {
        String extra = clock.describe() + (extraConditions == null ? "" : "; " + extraConditions);
        OsuRun.printHeader(world, options, OsuRun.conditions(world, options, extra), out);
        if (options.jitWarmup() > 0) {
            List<Integer> sizes = options.sizes();
            Runnable[] calls = new Runnable[sizes.size()];
            int[] counts = new int[sizes.size()];
            for (int k = 0; k < calls.length; k++) {
                calls[k] = op.prepare(world, sizes.get(k));
                counts[k] = options.jitWarmupCalls(sizes.get(k));
            }
            for (int k = 0; k < counts.length; k++) {
                counts[k] = (counts[k] + 3) / 4; // four calls a turn
            }
            long[] times = new long[4];
            double[] us = new double[2];
            int turns = Arrays.stream(counts).sum();
            int every = Math.max(1, turns / PASS_BREAKS);
            SplittableRandom samples = new SplittableRandom(world.rank());
            Runnable pass = () -> {
                // through the timed loop's own method and both its loops (untimed, timed), each going round more than
                // once, so that what the JIT compiles for it is ready before it times (timeCalls); every so often what
                // happens between timed sizes (passBreak)
                int[] turn = {0};
                OsuRun.interleavedPass(counts, k -> {
                    timeCalls(calls[k], 2, 2, times, us);
                    if (++turn[0] % every == 0) {
                        passBreak(sizes, calls[k], samples);
                    }
                });
                warmStatistics(sizes, samples);
            };
            OsuRun.warmUpJit(world, options, pass);
            OsuRun.rehearse(world, options, () -> {
                for (int k = 0; k < calls.length; k++) {
                    int size = sizes.get(k);
                    if (size <= OsuBenchmark.LARGE_MESSAGE_BYTES) { // in the timed order, in a row, as timed
                        int iters = options.iterations(size) / 4;
                        timeCalls(calls[k], options.warmup(size), iters, new long[2 * iters], new double[iters]);
                    }
                }
                pass.run(); // then every size again, interleaved
            });
        }
        for (int size : options.sizes()) {
            Runnable call = op.prepare(world, size);
            // OSU's untimed calls (-x), in a row. No idle time per size (session 12 had up to three rounds of it, 2 s
            // each): the ranks' first idle time and its allreduce on the statistics' communicator (pairs of ranks that
            // had not exchanged a message on it before) took paths the warm-up had not, so the JIT threw compiled code
            // away there (unstable_if in MatchingQueues' per-source queues, in ScheduleRunner's progress) and
            // recompiled it while the first size was timed; the pass breaks now give the profiles an idle time instead
            timeCalls(call, options.warmup(size), 0, null, null);
            learnAuto(world, "auto", size, call);
            JvmActivity before = JvmActivity.now();
            OsuTable.Row row = measure(size, call);
            OsuRun.reportCompiles(stats, options, size, before);
            if (world.rank() == 0) {
                out.println(OsuTable.row(benchmark, options.full(), row));
                out.flush();
            }
        }
    }

    /**
     * {@code --compare}: every algorithm on a view of the world with it forced ({@link Comm#withCollectives}),
     * timed in this one job; per size, rounds of one block of {@link OsuOptions#block} calls per algorithm in an
     * order shuffled per round (the same on every rank), each call timed as in {@link #measure}; then rank 0
     * prints {@link Comparison#table}.
     */
    private void runCompared(PrintStream out, String extraConditions, Sized op) {
        List<String> labels = Comparison.labels(options.compare());
        List<Comm> comms = new ArrayList<>();
        for (String name : options.compare()) {
            try {
                comms.add(world.withCollectives(benchmark.op() + "=" + name));
            } catch (IllegalArgumentException e) { // every rank gets the same names, so every rank ends here
                throw new OsuOptions.UsageException(benchmark.command() + ": --compare: " + e.getMessage());
            }
        }
        String extra = clock.describe() + (extraConditions == null ? "" : "; " + extraConditions);
        if (world.rank() == 0) {
            for (String line : OsuTable.header(benchmark, false, OsuRun.conditions(world, options, extra))) {
                if (!line.startsWith("# Size") && !line.startsWith("# Avg")) { // the comparison has its own columns
                    out.println(line);
                }
            }
            out.flush();
        }
        long[] seed = {System.nanoTime()}; // rank 0's, for all: each run samples other orders
        stats.bcast(Buffer.of(seed), 0);
        if (options.jitWarmup() > 0) { // every algorithm at every size, interleaved (OsuRun.interleavedPass)
            List<Integer> sizes = options.sizes();
            Runnable[] calls = new Runnable[sizes.size() * comms.size()];
            int[] counts = new int[calls.length];
            for (int k = 0; k < calls.length; k++) {
                int size = sizes.get(k / comms.size());
                calls[k] = op.prepare(comms.get(k % comms.size()), size);
                counts[k] = (options.jitWarmupCalls(size) + comms.size() - 1) / comms.size();
            }
            OsuRun.warmUpJit(world, options, () -> OsuRun.interleavedPass(counts, k -> untimed(calls[k])));
        }
        CollectiveOp cop = CollectiveOp.fromCliName(benchmark.op());
        RankContext ctx = RankContext.current();
        for (int size : options.sizes()) {
            double[][] times = compared(size, comms, op, new SplittableRandom(seed[0] + size));
            if (world.rank() == 0) {
                CostModel model = ctx == null ? null : JobModels.of(ctx.config().modelSpec());
                int[] groups = model == null ? IntStream.range(0, labels.size()).toArray()
                        : Comparison.scheduleGroups(cop, labels, world.size(), size, model);
                out.print(new Comparison(labels, times, groups).table(size, options.block(size),
                        autoPicks(comms, cop, labels, size)));
                out.flush();
            }
        }
    }

    /** One size of {@link #runCompared}: per algorithm, its OSU average in each round (meaningful on rank 0). */
    private double[][] compared(int size, List<Comm> comms, Sized op, SplittableRandom order) {
        int n = comms.size();
        int block = options.block(size);
        int rounds = options.rounds(size);
        Runnable[] calls = new Runnable[n];
        for (int a = 0; a < n; a++) {
            calls[a] = op.prepare(comms.get(a), size);
            for (int i = 0; i < options.warmup(size); i++) { // OSU's untimed iterations, per algorithm
                if (participant) {
                    calls[a].run();
                }
                separate();
            }
            learnAuto(comms.get(a), Comparison.labels(options.compare()).get(a), size, calls[a]);
        }
        double[] mine = new double[n * rounds]; // this rank's mean µs per call, [algorithm * rounds + round]
        JvmActivity before = JvmActivity.now();
        for (int r = 0; r < rounds; r++) {
            for (int a : Comparison.shuffled(n, order)) {
                long sum = 0;
                for (int i = 0; i < block; i++) {
                    if (participant) {
                        long t0 = System.nanoTime();
                        calls[a].run();
                        sum += System.nanoTime() - t0;
                    }
                    separate();
                }
                mine[a * rounds + r] = sum / 1e3 / block;
            }
        }
        JvmActivity during = JvmActivity.now().minus(before);
        double[] sum = new double[n * rounds + 1];
        System.arraycopy(mine, 0, sum, 0, mine.length);
        sum[n * rounds] = participant ? 1 : 0;
        double[] total = new double[sum.length];
        stats.reduce(Buffer.of(sum), Buffer.of(total), Op.SUM, 0);
        long[] events = during.toArray();
        long[] most = new long[events.length];
        stats.reduce(Buffer.of(events), Buffer.of(most), Op.MAX, 0);
        double[][] times = new double[n][rounds];
        if (world.rank() == 0) {
            for (int a = 0; a < n; a++) {
                for (int r = 0; r < rounds; r++) {
                    times[a][r] = total[a * rounds + r] / total[n * rounds];
                }
            }
            System.err.printf("%s %d B: during the timed rounds, per rank at most: %s%n", benchmark.command(), size,
                    JvmActivity.describe(most));
            System.err.flush();
        }
        return times;
    }

    /**
     * Per label, what an {@code auto} label ran last at {@code size}: its live trial's choice once one has ended,
     * else the model's pick (null for a forced one, or when unknown).
     */
    private static List<String> autoPicks(List<Comm> comms, CollectiveOp op, List<String> labels, int size) {
        List<String> picks = new ArrayList<>();
        for (int i = 0; i < labels.size(); i++) {
            String pick = null;
            if (Comparison.name(labels.get(i)).equals(CollRules.AUTO) && comms.get(i) instanceof CommImpl view) {
                try {
                    pick = view.choiceFor(op, CallShape.of(view.size(), size)).algorithm().name();
                } catch (RuntimeException e) {
                    pick = null; // the table still has auto's times
                }
            }
            picks.add(pick);
        }
        return picks;
    }

    /**
     * In a warm-up pass, what runs between the timed sizes ({@link #summarize} and the compile report), with
     * the same vector lengths, on made-up samples: its reductions of doubles and longs otherwise ran for the first
     * time after the first timed size, and the transport's compiled code, profiled on the benchmark's buffers
     * alone, was deoptimised and recompiled during the second (osu_bcast np 8: 1.7 s of compiles on a rank while
     * 2 B was timed, mean 601 µs against 198 µs at 1 B).
     */
    private void warmStatistics(List<Integer> sizes, SplittableRandom samples) {
        for (int iters : sizes.stream().map(options::iterations).distinct().toList()) {
            long[] times = new long[2 * iters];
            double[] us = new double[iters];
            for (int i = 0; i < iters; i++) { // varied, as timed calls: rank 0 sorts them (the percentiles)
                us[i] = 50 + samples.nextDouble() * 1_000;
                times[i] = samples.nextLong(1L << 40);
                times[iters + i] = times[i] + 1_000 + samples.nextLong(1_000_000);
            }
            OsuTable.Row row = summarize(sizes.get(0), iters, times, us);
            if (row != null) {
                OsuTable.row(benchmark, options.full(), row); // rank 0 formats it (not printed)
            }
        }
        OsuRun.mostEvents(stats, JvmActivity.now());
    }

    /**
     * How many times a JIT warm-up pass stops its interleaved calls for {@link #passBreak}.
     */
    static final int PASS_BREAKS = 12;
    /** How long every rank sleeps in a {@link #passBreak}, plus up to 7 ms by rank (so they wake apart). */
    static final long PASS_BREAK_IDLE_MILLIS = 20;
    /** The calls of one size made back to back in a {@link #passBreak}. */
    static final int PASS_BREAK_CALLS = 10;

    /**
     * Within a JIT warm-up pass, what happens between timed sizes, a few times a pass: the statistics on varied
     * made-up samples, every rank idle for a while (waking apart), then calls of one size back to back. Each
     * changed the transport's and the collectives' code paths that the interleaved calls alone never took, and the
     * JIT, which had compiled those on the calls' profiles, threw that code away when they first ran (unstable_if
     * and class-check traps) and recompiled it while the first sizes were timed: the statistics' larger messages
     * (a frame header split across two reads in FrameDecoder, Netty's pool size classes), the idle time after the
     * passes (the event loop blocking in epoll, a message arriving before its receive was posted in
     * ScheduleRunner's progress, Netty's write path finding the outbound buffer empty). osu_alltoall np 8, -m 1:16
     * at load 40: 1.2-3.5 s of C2 compiles on four ranks while 1 B was timed came from those traps. Run inside the
     * passes, from the first, those paths are in the profiles the JIT compiles from.
     */
    private void passBreak(List<Integer> sizes, Runnable call, SplittableRandom samples) {
        warmStatistics(sizes, samples);
        long until = System.nanoTime() + (PASS_BREAK_IDLE_MILLIS + world.rank() % 8) * 1_000_000;
        for (long left; (left = until - System.nanoTime()) > 0;) {
            java.util.concurrent.locks.LockSupport.parkNanos(left); // no InterruptedException; the flag stays set
        }
        timeCalls(call, PASS_BREAK_CALLS, 0, null, null);
    }

    /** One untimed call (by the ranks that take part) and OSU's barrier after it. */
    private void untimed(Runnable call) {
        if (participant) {
            call.run();
        }
        separate();
    }

    /** OSU's barrier between iterations (osu_barrier has none: its calls are barriers already). */
    private void separate() {
        if (benchmark != OsuBenchmark.BARRIER) {
            world.barrier();
        }
    }

    /**
     * Untimed calls of {@code call} on {@code comm} until {@code auto}'s live trials at {@code size} are over
     * ({@code --coll-tune}; nothing for a forced algorithm or with trials off), so the timed calls measure what
     * auto chose, not its learning: OSU's untimed calls are there to leave start-up out, and learning is start-up.
     * Rank 0 says how many calls it took. Every rank sees the same trial state at the same call, so all stop together.
     */
    private void learnAuto(Comm comm, String label, int size, Runnable call) {
        if (!(comm instanceof CommImpl view)) {
            return;
        }
        CollectiveOp op = CollectiveOp.fromCliName(benchmark.op());
        CallShape shape = CallShape.of(comm.size(), size);
        long at = view.autoLearningCalls(op, shape);
        long made = 0;
        while (at >= 0) {
            if (participant) {
                call.run();
            }
            separate();
            made++;
            long now = view.autoLearningCalls(op, shape);
            if (now >= 0 && now <= at) { // the calls count in another size class than this shape's: none to wait for
                break;
            }
            at = now;
        }
        if (made > 0 && world.rank() == 0) {
            System.err.printf("%s %d B: %s learned for %d more untimed calls (its live trials, --coll-tune), then "
                    + "ran %s%n", benchmark.command(), size, label, made, view.choiceFor(op, shape).algorithm().name());
            System.err.flush();
        }
    }

    /** Times one size (its untimed calls already made); the row is meaningful on rank 0 only. */
    private OsuTable.Row measure(int size, Runnable call) {
        int iters = options.iterations(size);
        long[] times = new long[2 * iters]; // global start times, then global end times
        double[] us = new double[iters];
        Arrays.fill(times, Long.MIN_VALUE);
        Arrays.fill(us, Double.NaN);
        timeCalls(call, 0, iters, times, us);
        return summarize(size, iters, times, us);
    }

    /**
     * {@code skip} untimed and then {@code iters} timed calls, each followed by OSU's barrier: the global start and
     * end times of the timed ones in {@code times} (starts, then ends) and their µs in {@code us}. The JIT warm-up
     * calls it too (two untimed and two timed calls at a time): with the calls in a method of their own the JIT
     * compiled for it in the first timed size, inlining the whole collective (osu_bcast np 8: 0.3 s of compiles on
     * a rank while 1 B was timed after a quiet start, mean 311 µs against 185 µs at 2 B). The warm-up goes round
     * each loop twice: it called it for one timed call and no untimed ones, and C2 compiled it on that profile (the
     * loop never going round again, the index test always passing); that code was thrown away (uncommon traps) in
     * the first size's loops of 100 and 1,000 calls, and the method recompiled while that size was timed
     * (osu_alltoall np 8: 0.4-2.6 s of compiles on a rank while 1 B was timed). Two loops, not one testing the
     * index.
     */
    private void timeCalls(Runnable call, int skip, int iters, long[] times, double[] us) {
        for (int i = 0; i < skip; i++) {
            untimed(call);
        }
        for (int k = 0; k < iters; k++) {
            if (participant) {
                long t0 = System.nanoTime();
                call.run();
                long t1 = System.nanoTime();
                times[k] = clock.toGlobal(t0);
                times[iters + k] = clock.toGlobal(t1);
                us[k] = (t1 - t0) / 1e3;
            }
            separate();
        }
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
