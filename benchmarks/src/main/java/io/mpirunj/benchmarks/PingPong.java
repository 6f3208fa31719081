package io.mpirunj.benchmarks;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import io.mpirunj.benchmarks.osu.OsuBenchmark;
import io.mpirunj.benchmarks.osu.OsuLatency;
import io.mpirunj.runtime.RankContext;

/**
 * Ping-pong latency and bandwidth between ranks 0 and 1, in the format of OSU's osu_latency:
 * {@code mpirun-j -np 2 [--threads] -cp benchmarks/target/classes io.mpirunj.benchmarks.PingPong
 * [maxBytes]}. Each round trip is timed on its own; the latency printed is half the median round
 * trip (the median resists the noise of a shared machine better than OSU's mean), and the
 * bandwidth is size / that latency. The ping-pong loop is osu_latency's ({@link OsuLatency#roundTrips}).
 */
public final class PingPong {
    private static final int JIT_WARMUP_ROUND_TRIPS = 5_000;

    private PingPong() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        int max = args.length > 0 ? Integer.parseInt(args[0]) : 4 << 20;
        if (world.size() < 2) {
            throw new IllegalArgumentException("PingPong needs at least 2 ranks (got " + world.size() + ")");
        }
        int rank = world.rank();
        if (rank == 0) {
            String transport = RankContext.current().transport().getClass().getSimpleName();
            System.out.println("# mpirun-j ping-pong latency (osu_latency style), median one-way time");
            System.out.println("# transport: " + transport + ", np " + world.size() + ", eager limit "
                    + RankContext.current().config().eagerLimitBytes() + " B, JIT warm-up " + 3 * JIT_WARMUP_ROUND_TRIPS
                    + " round trips; " + OsuFormat.conditions());
            System.out.println(String.format("%-10s%18s%18s", "# Size", "Latency (us)", "Bandwidth (MB/s)"));
        }
        byte[] buf = new byte[max];
        // One-off JIT warm-up over a few sizes, so the first rows measure the runtime, not the compiler.
        for (int size : new int[] {1, 1024, 8192}) {
            OsuLatency.roundTrips(world, Buffer.of(buf, 0, Math.min(size, max)), JIT_WARMUP_ROUND_TRIPS, 1);
        }
        for (int size : OsuFormat.sizes(1, max)) {
            boolean large = size > OsuBenchmark.LARGE_MESSAGE_BYTES;
            int iters = large ? (size >= 1 << 20 ? 100 : 1_000) : 10_000;
            int warmup = large ? 20 : 1_000;
            long[] rtt = OsuLatency.roundTrips(world, Buffer.of(buf, 0, size), warmup, iters);
            if (rank == 0) {
                double oneWayUs = OsuFormat.median(rtt, iters) / 2 / 1_000.0;
                System.out.println(OsuFormat.row(size, oneWayUs, size / oneWayUs));
            }
        }
        Mpi.finish();
    }
}
