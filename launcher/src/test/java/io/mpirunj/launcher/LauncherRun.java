package io.mpirunj.launcher;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assertions;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveOp;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import io.mpirunj.testkit.OutputCapture;
import picocli.CommandLine;

/** One run of {@code mpirun-j} in this JVM with stdout and stderr captured. */
record LauncherRun(int exitCode, String out, String err) {
    static LauncherRun of(String... args) {
        return of(System.getenv(), args);
    }

    /** A run that sees {@code env} as the launcher's environment (-x VAR, MPIEXEC_TIMEOUT, CLASSPATH). */
    static LauncherRun of(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = MpirunJ.commandLine(env, args); // as MpirunJ.main
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new LauncherRun(code, out.toString(), err.toString());
    }

    /**
     * A run in a JVM of its own ({@code java -cp <this classpath> MpirunJ args}, stdin closed), to its exit: for what
     * ends the JVM ({@code System.exit} with {@code --threads}). Its stderr is merged into {@code out}, in order.
     */
    static LauncherRun inOwnJvm(String... args) throws java.io.IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>(List.of(ProcessJob.javaExecutable(), "-cp",
                System.getProperty("java.class.path"), MpirunJ.class.getName()));
        cmd.addAll(List.of(args));
        Process launcher = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        launcher.getOutputStream().close();
        String out = new String(launcher.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        return new LauncherRun(launcher.waitFor(), out, "");
    }

    /** A run in the background whose output can be read while it runs. */
    static Running start(String... args) {
        OutputCapture out = new OutputCapture(); // synchronized (a StringBuffer inside); wakes waiters
        OutputCapture err = new OutputCapture();
        CommandLine cl = MpirunJ.commandLine(System.getenv(), args);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        CompletableFuture<LauncherRun> done = CompletableFuture.supplyAsync(() -> {
            int code = cl.execute(args);
            return new LauncherRun(code, out.toString(), err.toString());
        }, r -> {
            Thread t = new Thread(r, "launcher-under-test");
            t.setDaemon(true);
            t.start();
        });
        done.whenComplete((run, e) -> {
            out.wake();
            err.wake();
        });
        return new Running(out, err, done);
    }

    /** A background run: its output so far, and its end. */
    record Running(OutputCapture out, OutputCapture err, CompletableFuture<LauncherRun> done) {
        /**
         * Waits until stdout matches {@code pattern} at least {@code count} times and returns the matches; fails
         * if the job ends first. No clock of its own: the test's {@code @Timeout} bounds the wait.
         */
        List<MatchResult> awaitOut(Pattern pattern, int count) throws InterruptedException {
            return await(out, "stdout", pattern, count);
        }

        /** As {@link #awaitOut}, on stderr. */
        List<MatchResult> awaitErr(Pattern pattern, int count) throws InterruptedException {
            return await(err, "stderr", pattern, count);
        }

        private List<MatchResult> await(OutputCapture stream, String name, Pattern pattern, int count)
                throws InterruptedException {
            return stream.await(pattern, count, Long.MAX_VALUE, done::isDone, ended -> "expected " + count
                    + " lines matching " + pattern + " in " + name + "; got:\n" + out + "\n--- stderr\n" + err
                    + (ended ? "\n(the job ended)" : ""));
        }

        /** The job's end. No clock of its own: the test's {@code @Timeout} bounds the wait. */
        LauncherRun awaitEnd() throws InterruptedException, java.util.concurrent.ExecutionException {
            return done.get();
        }
    }

    List<String> outLines() {
        return lines(out);
    }

    List<String> errLines() {
        return lines(err);
    }

    private static List<String> lines(String s) {
        return s.isEmpty() ? List.of() : Arrays.stream(s.split("\\R")).collect(Collectors.toList());
    }

    /** The job succeeded and printed {@code line} (a check program's verdict). */
    void assertSucceededPrinting(String line) {
        Assertions.assertEquals(0, exitCode, this::toString);
        Assertions.assertTrue(outLines().contains(line), line + "\n" + this);
    }

    /**
     * For a program that prints {@code passed OP NAME} per algorithm it checked: the job succeeded and every
     * registered algorithm of {@code ops} passed (file:FILE.json aside: it needs a file, FileSchedulesTest).
     */
    void assertEveryAlgorithmPassed(CollectiveOp... ops) {
        Assertions.assertEquals(0, exitCode, this::toString);
        CollectiveRegistry registry = CollectiveRegistry.fromEnvironment();
        for (CollectiveOp op : ops) {
            Assertions.assertFalse(registry.names(op).isEmpty(), op + " has algorithms");
            for (String name : registry.names(op)) {
                if (registry.lookup(op, name) instanceof CollectiveAlgorithm.Parameterized) {
                    continue;
                }
                String line = "passed " + op.cliName() + " " + name;
                Assertions.assertTrue(outLines().contains(line), line + "\n" + this);
            }
        }
    }

    /** The classpath entry (directory or jar) that holds {@code c}. */
    static String classpathOf(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
}
