package io.mpirunj.testapps;

/**
 * A program that never calls {@code Mpi.init} ({@code --threads}): the first rank calls {@code System.exit(args[0])},
 * the others sleep. The first is found through a system property, which the ranks as threads share.
 */
public final class PlainExit {
    private PlainExit() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (System.getProperties().putIfAbsent("mpirunj.test.plainExit", "taken") == null) {
            System.exit(Integer.parseInt(args[0]));
        }
        Thread.sleep(60_000);
    }
}
