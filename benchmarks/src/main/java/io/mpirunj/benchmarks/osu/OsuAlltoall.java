package io.mpirunj.benchmarks.osu;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.ElementType;
import io.mpirunj.runtime.RankContext;
import java.io.PrintStream;
import java.util.function.IntFunction;

/**
 * osu_alltoall: latency of {@link Comm#alltoall} with SIZE bytes per pair, in OSU's layout. As OSU,
 * the largest size is capped so that SIZE x np stays within a memory limit (OSU's 512 MiB per
 * process; with ranks as threads, a share of this JVM's heap), with a warning on stderr.
 */
public final class OsuAlltoall {
    private OsuAlltoall() {
    }

    public static void main(String[] args) {
        OsuRun.main(OsuBenchmark.ALLTOALL, args, OsuAlltoall::run);
    }

    static void run(Comm world, OsuOptions o, PrintStream out) {
        int np = world.size();
        long limit = OsuOptions.MAX_MEM_LIMIT_BYTES;
        RankContext ctx = RankContext.current();
        boolean inJvm = ctx != null && !ctx.transport().getClass().getName().contains(".tcp.");
        if (inJvm) {
            limit = Math.min(limit, Runtime.getRuntime().maxMemory() / 4 / np);
        }
        int max = o.maxBytes();
        while ((long) max * np * 2 > limit && max > 1) {
            max /= 2;
        }
        if (max < o.maxBytes() && world.rank() == 0) {
            System.err.println("Warning! Limiting max message size to: " + max + ". (" + np + " ranks x 2 buffers x "
                    + "size must fit in " + (limit >> 20) + " MiB)");
        }
        int capped = max;
        IntFunction<Buffer> send = o.memory(ElementType.BYTE, Math.max(1, capped) * np);
        IntFunction<Buffer> recv = o.memory(ElementType.BYTE, Math.max(1, capped) * np);
        CollectiveBench.run(world, o.withMaxBytes(capped), out, true, null, (comm, size) -> {
            Buffer sb = send.apply(size * np);
            Buffer rb = recv.apply(size * np);
            return () -> comm.alltoall(sb, rb);
        });
    }
}
