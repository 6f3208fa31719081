package io.mpirunj.testapps;

import io.mpirunj.Comm;
import io.mpirunj.Mpi;

/**
 * Java's idiom {@code try { ... } finally { Mpi.finish(); }}: the rank given as args[0] throws before the barrier
 * every other rank calls, and its finally block takes it into Mpi.finish while the others wait for it there. With
 * args[1] {@code resources}, the same in {@code try (Comm world = Mpi.init(args)) { ...; Mpi.finish(); }}.
 */
public final class FinallyFinish {
    private FinallyFinish() {
    }

    public static void main(String[] args) {
        int thrower = Integer.parseInt(args[0]);
        if (args.length > 1 && args[1].equals("resources")) {
            try (Comm world = Mpi.init(args)) {
                throwOrBarrier(world, thrower);
                Mpi.finish();
            }
            return;
        }
        Comm world = Mpi.init(args);
        try {
            throwOrBarrier(world, thrower);
        } finally {
            Mpi.finish();
        }
    }

    private static void throwOrBarrier(Comm world, int thrower) {
        if (world.rank() == thrower) {
            throw new IllegalStateException("boom from rank " + world.rank());
        }
        world.barrier();
    }
}
