package io.mpirunj.docker;

import io.mpirunj.launcher.MpirunJ;
import io.mpirunj.testkit.OutputCapture;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
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
        OutputCapture out = new OutputCapture();
        OutputCapture err = new OutputCapture();
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
        done.whenComplete((run, e) -> out.wake());
        return new Running(out, err, done);
    }

    record Running(OutputCapture out, StringWriter err, CompletableFuture<Launch> done) {
        /** Waits until stdout holds {@code count} lines containing {@code text}. */
        void awaitOut(String text, int count, long timeoutMs) throws InterruptedException {
            out.await(Pattern.compile("(?m)^.*" + Pattern.quote(text) + ".*$"), count, timeoutMs, done::isDone,
                    ended -> count + " lines with '" + text + "' expected; stdout:\n" + out + "\n--- stderr\n" + err
                            + (ended ? "\n(the job ended)" : ""));
        }
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
}
