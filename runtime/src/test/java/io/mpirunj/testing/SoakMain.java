package io.mpirunj.testing;

import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import io.mpirunj.runtime.RankContext;

/**
 * {@code SoakMain [MESSAGES_PER_RANK [SEED]]}: runs the {@link Soak} on this rank and prints one
 * line with what it sent and received (for process-mode tests and benchmarks/soak.sh).
 */
public final class SoakMain {
    private SoakMain() {
    }

    public static void main(String[] args) throws Exception {
        int perRank = args.length > 0 ? Integer.parseInt(args[0]) : 2_000;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 1;
        Comm world = Mpi.init(args);
        int eagerLimit = RankContext.current().config().eagerLimitBytes();
        long start = System.nanoTime();
        Soak.Result r = Soak.run(world, seed, perRank, eagerLimit);
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("rank %d soak passed: sent %d, received %d (%d MiB, %d near the eager limit of %d B)"
                + " in %.1f s%n", world.rank(), r.sent(), r.received(), r.bytesReceived() >> 20,
                r.eagerLimitStraddlers(), eagerLimit, seconds);
        Mpi.finish();
    }
}
