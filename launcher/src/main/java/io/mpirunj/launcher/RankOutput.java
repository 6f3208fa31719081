package io.mpirunj.launcher;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * Where the ranks' output lines end up: the launcher's stdout and stderr, one whole line at a time
 * (so lines of different ranks never mix), prefixed with {@code [rank] } under {@code --tag-output}.
 * Thread-safe.
 */
final class RankOutput {
    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean tag;

    RankOutput(PrintWriter out, PrintWriter err, boolean tag) {
        this.out = out;
        this.err = err;
        this.tag = tag;
    }

    /** Writes one line (without its terminator) that {@code rank} wrote to stdout or stderr. */
    void line(int rank, boolean stderr, String line) {
        PrintWriter w = stderr ? err : out;
        String text = tag ? "[" + rank + "] " + line : line;
        synchronized (w) {
            w.println(text);
            w.flush();
        }
    }

    /** A launcher message (not rank output) on stderr. */
    void launcherError(String message) {
        synchronized (err) {
            err.println("mpirun-j: " + message);
            err.flush();
        }
    }

    /** {@code t}'s stack trace on stderr, every line prefixed with {@code [rank R] }. */
    void stackTrace(int rank, Throwable t) {
        for (String l : stackTraceLines(rank, t)) {
            line(rank, true, l);
        }
    }

    /**
     * {@code t}'s stack trace as lines, each prefixed with {@code [rank R] }, without the launcher's
     * own frames below the user's {@code main} (as {@code java} itself shows it).
     */
    static String[] stackTraceLines(int rank, Throwable t) {
        for (Throwable c = t; c != null && c.getCause() != c; c = c.getCause()) {
            c.setStackTrace(userFrames(c.getStackTrace()));
        }
        StringWriter sw = new StringWriter();
        t.printStackTrace(new PrintWriter(sw));
        String[] lines = sw.toString().split("\\R");
        for (int i = 0; i < lines.length; i++) {
            lines[i] = "[rank " + rank + "] " + lines[i];
        }
        return lines;
    }

    /** {@code frames} without the tail that only reflects into the user's main from the launcher. */
    private static StackTraceElement[] userFrames(StackTraceElement[] frames) {
        int end = frames.length;
        while (end > 0 && isLauncherFrame(frames[end - 1].getClassName())) {
            end--;
        }
        if (end == 0 || end == frames.length) {
            return frames;
        }
        StackTraceElement[] out = new StackTraceElement[end];
        System.arraycopy(frames, 0, out, 0, end);
        return out;
    }

    private static boolean isLauncherFrame(String className) {
        return className.startsWith("jdk.internal.reflect.") || className.equals("java.lang.reflect.Method")
                || className.equals("java.lang.Thread") || className.startsWith("io.mpirunj.launcher.");
    }

    void flush() {
        synchronized (out) {
            out.flush();
        }
        synchronized (err) {
            err.flush();
        }
    }
}
