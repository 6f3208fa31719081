package io.mpirunj.benchmarks.osu;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import java.io.PrintStream;
import java.util.Arrays;

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
        byte[] data = new byte[o.maxBytes()];
        Arrays.fill(data, (byte) 1);
        CollectiveBench.run(world, o, out, true, null, (comm, size) -> {
            Buffer b = Buffer.of(data, 0, size);
            return () -> comm.bcast(b, 0);
        });
    }
}
