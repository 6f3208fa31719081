package io.mpirunj.testapps;

import io.mpirunj.Comm;
import io.mpirunj.Mpi;

/**
 * Java's idiom {@code try { ... } finally { Mpi.finish(); }}: the rank given as args[0] throws before the barrier
 * every other rank calls, and its finally block takes it into Mpi.finish while the others wait for it there.
 */
public final class FinallyFinish {
    private FinallyFinish() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        try {
            if (world.rank() == Integer.parseInt(args[0])) {
                throw new IllegalStateException("boom from rank " + world.rank());
            }
            world.barrier();
        } finally {
            Mpi.finish();
        }
    }
}
