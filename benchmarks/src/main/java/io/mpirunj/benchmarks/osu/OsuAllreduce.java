package io.mpirunj.benchmarks.osu;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.ElementType;
import io.mpirunj.Op;
import java.io.PrintStream;
import java.util.function.IntFunction;

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
        IntFunction<Buffer> send = o.memory(ElementType.FLOAT, o.maxBytes() / 4);
        IntFunction<Buffer> recv = o.memory(ElementType.FLOAT, o.maxBytes() / 4);
        CollectiveBench.run(world, o, out, true, null, (comm, size) -> {
            Buffer sb = send.apply(size / 4);
            Buffer rb = recv.apply(size / 4);
            return () -> comm.allreduce(sb, rb, Op.SUM);
        });
    }
}
