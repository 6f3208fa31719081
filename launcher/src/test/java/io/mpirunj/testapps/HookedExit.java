package io.mpirunj.testapps;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;

/**
 * Every rank but args[0] adds a shutdown hook that prints {@code rank R shutdown hook ran}, tells rank args[0] so
 * and waits for a message from it that never comes; rank args[0], told by all, calls {@code System.exit(3)}: the
 * launcher stops the others, whose hooks then print.
 */
public final class HookedExit {
    private HookedExit() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        int victim = Integer.parseInt(args[0]);
        if (world.rank() == victim) {
            for (int i = 1; i < world.size(); i++) {
                world.recv(Buffer.of(new int[1]), Comm.ANY_SOURCE, 1);
            }
            System.exit(3);
        }
        int rank = world.rank();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("rank " + rank + " shutdown hook ran");
            System.out.flush();
        }));
        world.send(Buffer.of(new int[] {rank}), victim, 1);
        world.recv(Buffer.of(new int[1]), victim, 2);
        Mpi.finish();
    }
}
