package io.mpirunj.benchmarks.osu;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Op;
import java.io.PrintStream;
import java.util.Arrays;

/**
 * osu_allreduce: latency of {@link Comm#allreduce} (SUM of floats; SIZE bytes is SIZE/4 floats,
 * so sizes start at 4 as in OSU), in OSU's layout.
 */
public final class OsuAllreduce {
    private OsuAllreduce() {
    }

    public static void main(String[] args) {
        OsuRun.main(OsuBenchmark.ALLREDUCE, args, OsuAllreduce::run);
    }

    static void run(Comm world, OsuOptions o, PrintStream out) {
        float[] send = new float[Math.max(1, o.maxBytes() / 4)];
        float[] recv = new float[send.length];
        Arrays.fill(send, 1f);
        CollectiveBench.run(world, o, out, true, null, (comm, size) -> {
            Buffer sb = Buffer.of(send, 0, size / 4);
            Buffer rb = Buffer.of(recv, 0, size / 4);
            return () -> comm.allreduce(sb, rb, Op.SUM);
        });
    }
}
