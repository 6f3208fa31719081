package io.mpirunj.testapps;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;

/**
 * Rank 0 broadcasts twice (1, then 2); rank args[0] calls only the second bcast, so it receives the first call's
 * value, and the second call's message to it is never received. Every rank prints what it holds.
 */
public final class SkipsABcast {
    private SkipsABcast() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        int skipper = Integer.parseInt(args[0]);
        int[] value = {world.rank() == 0 ? 2 : 0};
        if (world.rank() != skipper) {
            world.bcast(Buffer.of(new int[] {1}), 0);
        }
        world.bcast(Buffer.of(value), 0);
        System.out.println("rank " + world.rank() + " holds " + value[0]);
        Mpi.finish();
    }
}
