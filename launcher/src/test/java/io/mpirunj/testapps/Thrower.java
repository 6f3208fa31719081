package io.mpirunj.testapps;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;

/**
 * The rank given as args[0] throws; every other rank waits for a message that never comes, so the
 * launcher has to stop it.
 */
public final class Thrower {
    private Thrower() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        int victim = Integer.parseInt(args[0]);
        if (world.rank() == victim) {
            throw new IllegalStateException("boom from rank " + world.rank());
        }
        world.recv(Buffer.of(new int[1]), victim, 99);
        Mpi.finish();
    }
}
