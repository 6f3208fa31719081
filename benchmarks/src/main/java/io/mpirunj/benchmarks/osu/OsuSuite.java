package io.mpirunj.benchmarks.osu;

import io.mpirunj.Comm;
import java.io.PrintStream;

/**
 * Runs any OSU-style benchmark on an existing communicator, printing on rank 0 to a given stream:
 * what the sweep's in-JVM runs and the tests use instead of each program's {@code main}.
 */
public final class OsuSuite {
    private OsuSuite() {
    }

    /**
     * Runs {@code b} with {@code args} on every rank of {@code world} (call it on every rank).
     *
     * @throws OsuOptions.UsageException for bad options or a rank count the test does not support
     */
    public static void run(OsuBenchmark b, Comm world, String[] args, PrintStream out) {
        OsuRun.run(world, OsuOptions.parse(b, args), out, body(b));
    }

    static OsuRun.Body body(OsuBenchmark b) {
        return switch (b) {
            case LATENCY -> OsuLatency::run;
            case BW -> OsuBw::run;
            case BCAST -> OsuBcast::run;
            case MULTICAST -> OsuMulticast::run;
            case ALLTOALL -> OsuAlltoall::run;
            case BARRIER -> OsuBarrier::run;
            case ALLREDUCE -> OsuAllreduce::run;
        };
    }
}
