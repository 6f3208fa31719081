package io.mpirunj.testapps;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * Rank args[0] calls {@code System.exit(args[1])}; the others wait for a message
 * that never comes, so the launcher has to stop them. With args[2] {@code in-finish}, rank args[0] calls
 * {@code Mpi.finish} and another of its threads exits once the main thread waits in it for the others. With args[2]
 * {@code after-finish} every rank calls {@code Mpi.finish} first, then rank args[0] calls {@code System.exit}.
 */
public final class Exiter {
    private Exiter() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        int victim = Integer.parseInt(args[0]);
        int status = Integer.parseInt(args[1]);
        if (args.length > 2 && args[2].equals("after-finish")) {
            Mpi.finish();
            if (world.rank() == victim) {
                System.exit(status);
            }
            return;
        }
        if (world.rank() == victim) {
            if (args.length > 2 && args[2].equals("in-finish")) {
                Thread main = Thread.currentThread();
                Thread exiter = new Thread(() -> {
                    while (!waitsInFinish(main)) {
                        LockSupport.parkNanos(1_000_000);
                    }
                    System.exit(status);
                }, "exiter");
                exiter.setDaemon(true);
                exiter.start();
                Mpi.finish();
            }
            System.exit(status);
        }
        world.recv(Buffer.of(new int[1]), victim, 99);
        System.out.println("rank " + world.rank() + " still alive");
        Mpi.finish();
    }

    /** {@code t} is parked in Mpi.finish's wait for the job's other ranks (its fence message sent). */
    private static boolean waitsInFinish(Thread t) {
        Thread.State s = t.getState();
        return (s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING)
                && Arrays.stream(t.getStackTrace()).anyMatch(f -> f.getMethodName().equals("finishFence"));
    }
}
