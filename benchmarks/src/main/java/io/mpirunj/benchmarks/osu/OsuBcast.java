package io.mpirunj.benchmarks.osu;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.ElementType;
import java.io.PrintStream;
import java.util.function.IntFunction;

/**
 * osu_bcast: latency of {@link Comm#bcast} from rank 0, in OSU's layout ({@link OsuTable}; timing
 * as {@link CollectiveBench}). {@code mpirun-j -np 8 [--threads] [--coll bcast=NAME] -cp CP
 * io.mpirunj.benchmarks.osu.OsuBcast [-m MIN:MAX] [-i N] [-x N] [-f]}, or {@code mpirun-j bench osu_bcast -np 8}.
 */
public final class OsuBcast {
    private OsuBcast() {
    }

    public static void main(String[] args) {
        OsuRun.main(OsuBenchmark.BCAST, args, OsuBcast::run);
    }

    static void run(Comm world, OsuOptions o, PrintStream out) {
        IntFunction<Buffer> data = o.memory(ElementType.BYTE, o.maxBytes());
        CollectiveBench.run(world, o, out, true, null, (comm, size) -> {
            Buffer b = data.apply(size);
            return () -> comm.bcast(b, 0);
        });
    }
}
