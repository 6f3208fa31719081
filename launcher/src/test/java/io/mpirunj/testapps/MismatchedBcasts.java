package io.mpirunj.testapps;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;

/**
 * Bcasts whose calls do not match across the ranks, no other traffic before them. {@code skip R}: rank 0 broadcasts
 * twice (1, then 2) and rank R calls only the second bcast, so it receives the first call's value and the second
 * call's message to it is never received. {@code own-root}: each rank calls one bcast naming itself the root.
 * {@code only-root}: rank 0 alone calls a bcast. Every rank prints what it holds.
 */
public final class MismatchedBcasts {
    private MismatchedBcasts() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        int me = world.rank();
        int[] value = {me == 0 ? 2 : 0};
        switch (args[0]) {
            case "skip" -> {
                if (me != Integer.parseInt(args[1])) {
                    world.bcast(Buffer.of(new int[] {1}), 0);
                }
                world.bcast(Buffer.of(value), 0);
            }
            case "own-root" -> world.bcast(Buffer.of(value), me);
            case "only-root" -> {
                if (me == 0) {
                    world.bcast(Buffer.of(value), 0);
                }
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.out.println("rank " + me + " holds " + value[0]);
        Mpi.finish();
    }
}
