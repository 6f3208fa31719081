package io.mpirunj.docker;

import io.mpirunj.launcher.MpirunJ;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine;

/** One run of {@code mpirun-j} in this JVM with its output captured. */
record Launch(int exitCode, String out, String err) {
    /** The limit of one job; past it the job is reported with its output so far. */
    static final long JOB_LIMIT_S = 240;

    static Launch of(List<String> args) {
        Running r = start(args);
        try {
            return r.done().get(JOB_LIMIT_S, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("the job did not end within " + JOB_LIMIT_S + " s; stdout:\n" + r.out()
                    + "\n--- stderr\n" + r.err());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static Running start(List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = MpirunJ.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        CompletableFuture<Launch> done = CompletableFuture.supplyAsync(() -> {
            int code = cl.execute(args.toArray(String[]::new));
            return new Launch(code, out.toString(), err.toString());
        }, r -> {
            Thread t = new Thread(r, "launcher-under-test");
            t.setDaemon(true);
            t.start();
        });
        return new Running(out, err, done);
    }

    record Running(StringWriter out, StringWriter err, CompletableFuture<Launch> done) {
        /** Waits until stdout holds {@code count} lines containing {@code text}. */
        void awaitOut(String text, int count, long timeoutMs) throws InterruptedException {
            long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
            while (out.toString().lines().filter(l -> l.contains(text)).count() < count) {
                if (done.isDone() || System.nanoTime() > deadline) {
                    throw new AssertionError(count + " lines with '" + text + "' expected; stdout:\n" + out
                            + "\n--- stderr\n" + err + (done.isDone() ? "\n(the job ended)" : ""));
                }
                Thread.sleep(50);
            }
        }
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
}
