package io.mpirunj.testapps;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;

/**
 * Prints {@code rank R pid P}, then blocks for ever: with {@code mpi} in a receive that never
 * matches (a shutdown hook prints {@code rank R shutdown hook ran}), with {@code plain} (without joining the job)
 * in a sleep on a non-daemon thread.
 */
public final class Sleeper {
    private Sleeper() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("plain")) {
            System.out.println("rank " + System.getenv("OMPI_COMM_WORLD_RANK") + " pid " + ProcessHandle.current().pid());
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE);
        }
        Comm world = Mpi.init(args);
        world.barrier();
        int rank = world.rank();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("rank " + rank + " shutdown hook ran");
            System.out.flush();
        }));
        System.out.println("rank " + rank + " pid " + ProcessHandle.current().pid());
        System.out.flush();
        world.recv(Buffer.of(new int[1]), Comm.ANY_SOURCE, 1);
        Mpi.finish();
    }
}
