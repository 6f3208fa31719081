package io.mpirunj.testapps;

/**
 * A program that never calls {@code Mpi.init} ({@code --threads}): the first rank calls {@code System.exit(args[0])},
 * the others wait for an event that never comes, until the JVM ends. The first is found through a system property,
 * which the ranks as threads share.
 */
public final class PlainExit {
    private PlainExit() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (System.getProperties().putIfAbsent("mpirunj.test.plainExit", "taken") == null) {
            System.exit(Integer.parseInt(args[0]));
        }
        new java.util.concurrent.CountDownLatch(1).await(); // until the first rank's exit ends the JVM
    }
}
