package io.mpirunj.benchmarks.osu;

import io.mpirunj.Comm;
import java.io.PrintStream;

/** osu_barrier: latency of {@link Comm#barrier}, in OSU's layout (no size column). */
public final class OsuBarrier {
    private OsuBarrier() {
    }

    public static void main(String[] args) {
        OsuRun.main(OsuBenchmark.BARRIER, args, OsuBarrier::run);
    }

    static void run(Comm world, OsuOptions o, PrintStream out) {
        CollectiveBench.run(world, o, out, true, null, (comm, size) -> comm::barrier);
    }
}
