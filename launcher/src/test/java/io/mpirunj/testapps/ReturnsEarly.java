package io.mpirunj.testapps;

import io.mpirunj.Comm;
import io.mpirunj.Mpi;

/**
 * Rank args[0] returns from main early: with args[1] {@code before-init}, before Mpi.init (its rank from the
 * launcher's environment, or, as a thread of {@code --threads}, from its thread's name); with {@code without-finish},
 * after Mpi.init, without Mpi.finish. The other ranks join and wait in a barrier that needs it; with args[2]
 * {@code after-it} ({@code --threads} only), they call Mpi.init only once its thread has ended.
 */
public final class ReturnsEarly {
    private ReturnsEarly() {
    }

    public static void main(String[] args) {
        String name = Thread.currentThread().getName();
        String rank = name.startsWith("rank-") ? name.substring("rank-".length())
                : System.getenv("OMPI_COMM_WORLD_RANK");
        boolean beforeInit = args[1].equals("before-init");
        if (beforeInit && args[0].equals(rank)) {
            System.out.println("rank " + rank + " returns before Mpi.init");
            return;
        }
        if (args.length > 2 && args[2].equals("after-it")) {
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().equals("rank-" + args[0]) && t != Thread.currentThread()) {
                    try {
                        t.join();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        }
        Comm world = Mpi.init(args);
        if (!beforeInit && world.rank() == Integer.parseInt(args[0])) {
            System.out.println("rank " + world.rank() + " returns without Mpi.finish");
            return;
        }
        world.barrier();
        System.out.println("rank " + world.rank() + " still alive");
        Mpi.finish();
    }
}
