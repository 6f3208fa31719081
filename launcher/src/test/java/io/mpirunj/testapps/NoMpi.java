package io.mpirunj.testapps;

/** Never joins the job: prints a partial line and returns; leaves a non-daemon thread running. */
public final class NoMpi {
    private NoMpi() {
    }

    public static void main(String[] args) {
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(600_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "stray");
        t.setDaemon(false);
        if (args.length > 0 && args[0].equals("stray")) {
            t.start();
        }
        System.out.print("no newline at the end");
    }
}
