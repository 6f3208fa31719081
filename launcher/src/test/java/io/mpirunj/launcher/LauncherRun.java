package io.mpirunj.launcher;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import picocli.CommandLine;

/** One run of {@code mpirun-j} in this JVM with stdout and stderr captured. */
record LauncherRun(int exitCode, String out, String err) {
    static LauncherRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = MpirunJ.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new LauncherRun(code, out.toString(), err.toString());
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
