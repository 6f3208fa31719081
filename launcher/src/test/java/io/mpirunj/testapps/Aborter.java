package io.mpirunj.testapps;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;

/** Rank args[0] calls {@code abort(args[1])}; the others wait for a message that never comes. */
public final class Aborter {
    private Aborter() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        int victim = Integer.parseInt(args[0]);
        if (world.rank() == victim) {
            world.abort(Integer.parseInt(args[1]));
        }
        world.recv(Buffer.of(new int[1]), victim, 99);
        Mpi.finish();
    }
}
