package io.mpirunj.testapps;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;

/**
 * Rank args[0] calls {@code System.exit(args[1])} (process mode only); the others wait for a message
 * that never comes, so the launcher has to stop them.
 */
public final class Exiter {
    private Exiter() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        int victim = Integer.parseInt(args[0]);
        if (world.rank() == victim) {
            System.exit(Integer.parseInt(args[1]));
        }
        world.recv(Buffer.of(new int[1]), victim, 99);
        System.out.println("rank " + world.rank() + " still alive");
        Mpi.finish();
    }
}
