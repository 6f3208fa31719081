package io.mpirunj.benchmarks.osu;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import io.mpirunj.Op;
import io.mpirunj.benchmarks.JitQuiet;
import io.mpirunj.benchmarks.OsuFormat;
import io.mpirunj.runtime.JvmActivity;
import io.mpirunj.runtime.RankContext;
import io.mpirunj.runtime.spi.CollectiveOp;
import java.io.PrintStream;
import java.util.List;

/**
 * What every OSU-style program shares: the {@code main} wrapper (options, bad usage, help), the
 * conditions line and the size loop's bookkeeping.
 */
final class OsuRun {
    /** Exit status for bad options (as mpirun-j's own usage errors). */
    static final int EXIT_USAGE = 2;
    /**
     * How long after its first (cold) pass, and how many times at most, {@link #warmUpJit} repeats its
     * pass while a JIT still compiles. Counted from the first pass's end: at np 8 as processes on 2 cores
     * the cold pass over 1 B-1 MiB alone took 24 s, and a limit counted from the start ended the
     * warm-up there, with C2 still compiling into the first timed sizes (osu_bcast 1 B: mean 2,009 µs,
     * P50 162 µs, P99 26 ms).
     */
    static final long JIT_QUIET_LIMIT_NANOS = 20_000_000_000L;
    static final int JIT_QUIET_MAX_PASSES = 10;
    /**
     * After the warm-up's passes, every rank idles until its JVM (JIT) has been quiet for {@value #SETTLE_QUIET_STEPS}
     * steps of {@value #SETTLE_STEP_MILLIS} ms ({@link JitQuiet#settle}), at most {@value #SETTLE_LIMIT_MILLIS} ms:
     * the passes end with compilations still queued on every rank (at np 8 on 2 cores the pass limit was reached in
     * every run), and the first timed size ran beside them.
     */
    static final long SETTLE_STEP_MILLIS = 100;
    static final int SETTLE_QUIET_STEPS = 3;
    static final long SETTLE_LIMIT_MILLIS = 20_000;

    /** The body of one benchmark, run by every rank with the parsed options. */
    @FunctionalInterface
    interface Body {
        void run(Comm world, OsuOptions options, PrintStream out);
    }

    private OsuRun() {
    }

    /**
     * The {@code main} of a benchmark program: joins the job, parses the options (bad ones: one line
     * on stderr from rank 0 and the job ends with status {@value #EXIT_USAGE}), runs the body and
     * leaves the job.
     */
    static void main(OsuBenchmark b, String[] args, Body body) {
        Comm world = Mpi.init(args);
        try {
            run(world, OsuOptions.parse(b, args), System.out, body);
        } catch (OsuOptions.UsageException e) {
            // every rank parses the same arguments and checks the same np, so all of them end up here
            if (world.rank() == 0) {
                System.err.println(e.getMessage());
                System.err.flush();
                world.abort(EXIT_USAGE);
            }
        }
        Mpi.finish(); // after a usage error the other ranks wait here for rank 0's abort
    }

    /** Runs {@code body} (or prints the help) with {@code options}; what tests call on each rank. */
    static void run(Comm world, OsuOptions options, PrintStream out, Body body) {
        if (options.help()) {
            if (world.rank() == 0) {
                out.print(OsuOptions.help(options.benchmark()));
                out.flush();
            }
            return;
        }
        body.run(world, options, out);
        out.flush();
    }

    /** Prints the header lines on rank 0. */
    static void printHeader(Comm world, OsuOptions o, String conditions, PrintStream out) {
        if (world.rank() == 0) {
            List<String> lines = OsuTable.header(o.benchmark(), o.full(), conditions);
            for (String l : lines) {
                out.println(l);
            }
            out.flush();
        }
    }

    /** The body of the {@code # mpirun-j:} line: job, algorithm, warm-up, clock, machine. */
    static String conditions(Comm world, OsuOptions o, String extra) {
        StringBuilder sb = new StringBuilder("np ").append(world.size());
        RankContext ctx = RankContext.current();
        if (ctx != null) {
            sb.append(", ").append(ctx.transport().getClass().getSimpleName());
            String op = o.benchmark().op();
            if (op != null && o.compare() != null) {
                sb.append(", ").append(op).append(" compared: ").append(String.join(", ", o.compare()));
            } else if (op != null) {
                try {
                    String chosen = ctx.registry().chosenName(CollectiveOp.fromCliName(op));
                    sb.append(", ").append(op).append('=').append(chosen == null ? "?" : chosen);
                } catch (RuntimeException e) {
                    sb.append(", ").append(op).append("=?");
                }
            } else {
                sb.append(", eager limit ").append(ctx.config().eagerLimitBytes()).append(" B");
            }
        }
        sb.append("; warm-up ").append(o.describeWarmup());
        if (extra != null) {
            sb.append("; ").append(extra);
        }
        sb.append("; ").append(OsuFormat.conditions());
        return sb.toString();
    }

    /**
     * The JIT warm-up before the first timed size: {@code pass} makes the untimed calls at every size
     * ({@link OsuOptions#jitWarmupCalls}) and runs again until no rank's JIT compiled anything during
     * one (at most {@link #JIT_QUIET_MAX_PASSES} passes, and no new pass {@link #JIT_QUIET_LIMIT_NANOS}
     * after the first one ended), so that
     * the first timed size does not share the cores with compiler threads (np 2 processes, osu_latency 1 B: mean 76 µs against a median of 26 µs
     * when it did). Every rank runs as many passes. Rank 0 says how it ended in one line on stderr (the
     * table on stdout keeps OSU's layout): a warm-up cut short by the limits means the first sizes may
     * still be slow. Nothing with {@code --jit-warmup 0}.
     */
    static void warmUpJit(Comm world, OsuOptions o, Runnable pass) {
        if (o.jitWarmup() == 0) {
            return;
        }
        long start = System.nanoTime();
        int[] passes = {0};
        long[] firstPassEnd = {0};
        boolean compiling = JitQuiet.untilQuiet(world, pass, compiled -> {
            int done = ++passes[0];
            long now = System.nanoTime();
            if (done == 1) {
                firstPassEnd[0] = now;
            }
            return compiled && done < JIT_QUIET_MAX_PASSES && now - firstPassEnd[0] < JIT_QUIET_LIMIT_NANOS;
        });
        long settleStart = System.nanoTime();
        boolean settleCut = JitQuiet.settle(world, SETTLE_STEP_MILLIS, SETTLE_QUIET_STEPS, SETTLE_LIMIT_MILLIS);
        if (world.rank() == 0) {
            System.err.printf("%s: JIT warm-up: %d pass(es), %.1f s; %s; then idle %.1f s, %s%n",
                    o.benchmark().command(), passes[0], (settleStart - start) / 1e9,
                    compiling ? "rank 0's JIT still compiled in the last pass (limit reached)" : "quiet",
                    (System.nanoTime() - settleStart) / 1e9, settleCut ? "some rank's JVM still busy (limit reached)"
                            : "until every rank's JVM was quiet");
            System.err.flush();
        }
    }

    /** At most this many rounds of {@link #rehearse}. */
    static final int REHEARSAL_MAX_ROUNDS = 3;

    /**
     * After {@link #warmUpJit}: rounds of {@code rehearsal} (the caller's: each small size's calls in a row in the
     * timed order; {@link CollectiveBench} then makes one more warm-up pass, osu_latency nothing more), each followed by the idle wait of
     * {@link JitQuiet#settle}, until a round in which no rank's JIT compiled anything (at most
     * {@value #REHEARSAL_MAX_ROUNDS}). Why: at np 8 on 2 cores the passes end on their time limit with C2 behind,
     * and C2's thresholds grow with its queue (tiered compilation's load feedback), so methods run once per call
     * (the schedule runner's entry, the schedule cache's lookup) were still short of them when the queue emptied in
     * the idle wait; the first timed calls crossed them and the first sizes ran beside their compiles (osu_alltoall
     * np 8, 1 B, quiet machine: 413-655 ms of JIT on a rank while timed, mean 482-506 µs against 163 µs in a
     * 100,000-call run). Calls made after the queue has emptied cross them before timing instead. Rank 0 says how
     * many rounds ran; nothing with {@code --jit-warmup 0}.
     */
    static void rehearse(Comm world, OsuOptions o, Runnable rehearsal) {
        if (o.jitWarmup() == 0) {
            return;
        }
        long start = System.nanoTime();
        int[] rounds = {0};
        boolean compiling = JitQuiet.untilQuiet(world, () -> {
            rounds[0]++;
            rehearsal.run();
            JitQuiet.settle(world, SETTLE_STEP_MILLIS, SETTLE_QUIET_STEPS, SETTLE_LIMIT_MILLIS);
        }, compiled -> compiled && rounds[0] < REHEARSAL_MAX_ROUNDS);
        if (world.rank() == 0) {
            System.err.printf("%s: JIT warm-up after idling: %d round(s), %.1f s; %s%n", o.benchmark().command(),
                    rounds[0], (System.nanoTime() - start) / 1e9,
                    compiling ? "rank 0's JIT still compiled in the last round (limit reached)"
                            : "the last round compiled nothing on rank 0");
            System.err.flush();
        }
    }

    /**
     * The JIT warm-up of a two-rank program (osu_latency, osu_bw): passes over its sizes, interleaved, one call
     * of {@code oneCall(size)} each turn, then what runs between timed sizes (a barrier, the compile report's
     * reduction), so all of it is compiled before the first timed size.
     */
    static void warmUpPointToPoint(Comm world, OsuOptions o, java.util.function.IntConsumer oneCall) {
        java.util.List<Integer> sizes = o.sizes();
        int[] counts = sizes.stream().mapToInt(o::jitWarmupCalls).toArray();
        warmUpJit(world, o, () -> {
            interleavedPass(counts, k -> oneCall.accept(sizes.get(k)));
            world.barrier();
            mostEvents(world, JvmActivity.now());
        });
    }

    /**
     * One warm-up pass with the sizes interleaved: call {@code k} (of {@code calls.length}) runs {@code calls[k]}
     * times, one after another in turn ({@code 0, 1, ..., n-1, 0, 1, ...}), not all calls of one size in a row.
     * The JIT compiles a hot method with the profile it gathered just before; a pass going size by size gave
     * transport methods the profile of the large sizes only (rendezvous, big reads), and their compiled code,
     * without the small-message branches, was thrown away again (deoptimised) in the first timed size, which
     * then ran beside their recompilation (osu_bcast np 8 processes: 1.6 s of compiles on rank 0 while 1 B was
     * timed, mean 586 µs against 194 µs at 8 B). Every profile now sees every size.
     */
    static void interleavedPass(int[] calls, java.util.function.IntConsumer call) {
        int most = 0;
        for (int c : calls) {
            most = Math.max(most, c);
        }
        for (int i = 0; i < most; i++) {
            for (int k = 0; k < calls.length; k++) {
                if (i < calls[k]) {
                    call.accept(k);
                }
            }
        }
    }

    /**
     * Between every timed size: the JIT compile time and GC that happened on any rank while the size was timed,
     * with {@code -f} one line on stderr from rank 0 when some rank's JIT compiled (that size ran partly on code
     * being compiled, beside compiler threads). {@code before} is this rank's {@link JvmActivity#now()} before the size.
     */
    static void reportCompiles(Comm stats, OsuOptions o, int size, JvmActivity before) {
        long[] most = mostEvents(stats, JvmActivity.now().minus(before));
        if (stats.rank() == 0 && o.full() && most[0] > 0) { // -f: a line per size a compile or GC ran into
            System.err.printf("%s %d B: while timed, per rank at most: %s%n", o.benchmark().command(), size,
                    JvmActivity.describe(most));
            System.err.flush();
        }
    }

    /**
     * The largest of every rank's {@code events} (meaningful on rank 0). A warm-up pass calls it too (with anything):
     * the reduction's code paths (long vectors, MAX) are then compiled with the benchmark's, not deoptimised and
     * recompiled during the next timed size.
     */
    static long[] mostEvents(Comm stats, JvmActivity events) {
        long[] mine = events.toArray();
        long[] most = new long[mine.length];
        stats.reduce(Buffer.of(mine), Buffer.of(most), Op.MAX, 0);
        return most;
    }

    /** The two ranks a point-to-point test needs, or a clear error (as OSU: "requires exactly two processes"). */
    static void requireTwoRanks(Comm world, OsuBenchmark b) {
        if (world.size() != 2) {
            throw new OsuOptions.UsageException(b.command() + ": this test requires exactly two processes (got np "
                    + world.size() + ")");
        }
    }

    /** At least two ranks, as OSU's collectives. */
    static void requireTwoOrMore(Comm world, OsuBenchmark b) {
        if (world.size() < 2) {
            throw new OsuOptions.UsageException(b.command() + ": this test requires at least two processes (got np "
                    + world.size() + ")");
        }
    }
}
