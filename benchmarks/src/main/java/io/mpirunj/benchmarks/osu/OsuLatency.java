package io.mpirunj.benchmarks.osu;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.runtime.JvmActivity;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.function.IntFunction;

/**
 * osu_latency: ping-pong between ranks 0 and 1 (exactly two ranks, as OSU), in OSU's layout. The
 * latency is OSU's: total time of the timed round trips / (2 x iterations). With {@code -f}, ours:
 * Min, Max, Iterations, P50 and P99 of the single one-way times (round trip / 2).
 */
public final class OsuLatency {
    private static final int TAG = 1;

    private OsuLatency() {
    }

    public static void main(String[] args) {
        OsuRun.main(OsuBenchmark.LATENCY, args, OsuLatency::run);
    }

    static void run(Comm world, OsuOptions o, PrintStream out) {
        OsuRun.requireTwoRanks(world, o.benchmark());
        OsuRun.printHeader(world, o, OsuRun.conditions(world, o, null), out);
        IntFunction<Buffer> messages = o.messageBuffers();
        // one untimed and one timed round trip a turn: the warm-up goes through both paths of the timed loop, so its
        // compiled code is not thrown away (an untaken branch) when the first size is timed
        OsuRun.warmUpPointToPoint(world, o, size -> roundTrips(world, messages.apply(size), 1, 1));
        OsuRun.rehearse(world, o, () -> {
            for (int size : o.sizes()) {
                if (size <= OsuBenchmark.LARGE_MESSAGE_BYTES) { // in the timed order, in a row, as timed
                    roundTrips(world, messages.apply(size), o.warmup(size), o.iterations(size) / 4);
                }
            }
        });
        for (int size : o.sizes()) {
            int iters = o.iterations(size);
            world.barrier();
            JvmActivity before = JvmActivity.now();
            long[] rtt = roundTrips(world, messages.apply(size), o.warmup(size), iters);
            OsuRun.reportCompiles(world, o, size, before);
            if (world.rank() == 0) {
                out.println(OsuTable.row(o.benchmark(), o.full(), summarize(size, rtt)));
                out.flush();
            }
        }
    }

    /**
     * Ping-pongs {@code buf} between ranks 0 and 1: {@code warmup} untimed round trips, then
     * {@code iters} timed ones. Returns rank 0's round-trip times in ns (an empty array elsewhere).
     * Other ranks return at once.
     */
    public static long[] roundTrips(Comm world, Buffer buf, int warmup, int iters) {
        int rank = world.rank();
        long[] rtt = new long[rank == 0 ? iters : 0];
        for (int i = -warmup; i < iters; i++) {
            if (rank == 0) {
                long t0 = System.nanoTime();
                world.send(buf, 1, TAG);
                world.recv(buf, 1, TAG);
                if (i >= 0) {
                    rtt[i] = System.nanoTime() - t0;
                }
            } else if (rank == 1) {
                world.recv(buf, 0, TAG);
                world.send(buf, 0, TAG);
            }
        }
        return rtt;
    }

    /** OSU's latency (mean one-way) plus our statistics of the single one-way times. */
    static OsuTable.Row summarize(int size, long[] rttNs) {
        double[] oneWayUs = new double[rttNs.length];
        double total = 0;
        for (int i = 0; i < rttNs.length; i++) {
            oneWayUs[i] = rttNs[i] / 2e3;
            total += oneWayUs[i];
        }
        Arrays.sort(oneWayUs);
        return new OsuTable.Row(size, total / rttNs.length, oneWayUs[0], oneWayUs[oneWayUs.length - 1], rttNs.length,
                Percentiles.of(oneWayUs, 50), Percentiles.of(oneWayUs, 99), Double.NaN);
    }
}
