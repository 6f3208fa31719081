package io.mpirunj.testapps;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import java.util.Arrays;

/**
 * Two ranks call {@code System.exit} at once, in a fixed order ({@code --threads} only, 4 ranks): rank 1 holds
 * the monitor that {@code Shutdown.exit} takes before it runs the shutdown hooks, lets rank 2 call
 * {@code System.exit(7)}, waits until rank 2's thread is blocked entering {@code Shutdown.exit}, then calls
 * {@code System.exit(2)}, whose call the JVM exits with. Ranks 0 and 3 wait for a message that never comes.
 */
public final class ExitRace {
    private ExitRace() {
    }

    public static void main(String[] args) throws Exception {
        Comm world = Mpi.init(args);
        if (world.rank() == 1) {
            synchronized (Class.forName("java.lang.Shutdown")) {
                world.send(Buffer.of(new int[1]), 2, 1);
                Thread rank2 = Thread.getAllStackTraces().keySet().stream()
                        .filter(t -> t.getName().equals("rank-2")).findFirst().orElseThrow();
                while (!(rank2.getState() == Thread.State.BLOCKED && Arrays.stream(rank2.getStackTrace())
                        .anyMatch(f -> f.getClassName().equals("java.lang.Shutdown") && f.getMethodName().equals("exit")))) {
                    Thread.onSpinWait();
                }
                System.exit(2);
            }
        }
        if (world.rank() == 2) {
            world.recv(Buffer.of(new int[1]), 1, 1);
            System.exit(7);
        }
        world.recv(Buffer.of(new int[1]), 1, 99);
        System.out.println("rank " + world.rank() + " still alive");
    }
}
