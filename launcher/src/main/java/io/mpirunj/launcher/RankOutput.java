package io.mpirunj.launcher;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Where the ranks' output lines end up, one whole line at a time (so lines of different ranks never
 * mix): the launcher's stdout and stderr, or with {@code --output-filename DIR} the file
 * {@code DIR/rank.R} of each rank (its stdout and stderr lines in the order they came). Each line
 * may be prefixed with {@code [timestamp] } ({@code --timestamp-output}) and {@code [rank] }
 * ({@code --tag-output}). Launcher messages always go to the launcher's stderr. Thread-safe.
 */
final class RankOutput implements AutoCloseable {
    /** {@code --timestamp-output}: local time to the millisecond. */
    static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean tag;
    private final boolean timestamp;
    /** Per rank, with {@code --output-filename}; else null. */
    private final PrintWriter[] files;

    private RankOutput(PrintWriter out, PrintWriter err, JobSpec.OutputOptions options, PrintWriter[] files) {
        this.out = out;
        this.err = err;
        this.tag = options.tag();
        this.timestamp = options.timestamp();
        this.files = files;
    }

    /**
     * The output of a job of {@code size} ranks. With an output directory, creates it and one file
     * per rank ({@code rank.0}, {@code rank.1}, ...; existing files are replaced).
     *
     * @throws IOException if the directory or a file cannot be created
     */
    static RankOutput open(PrintWriter out, PrintWriter err, JobSpec.OutputOptions options, int size)
            throws IOException {
        PrintWriter[] files = null;
        if (options.directory() != null) {
            Files.createDirectories(options.directory());
            files = new PrintWriter[size];
            try {
                for (int r = 0; r < size; r++) {
                    BufferedWriter w = Files.newBufferedWriter(fileOf(options.directory(), r), StandardCharsets.UTF_8);
                    files[r] = new PrintWriter(w, false);
                }
            } catch (IOException e) {
                for (PrintWriter w : files) {
                    if (w != null) {
                        w.close();
                    }
                }
                throw e;
            }
        }
        return new RankOutput(out, err, options, files);
    }

    /** The file of {@code rank} in an output directory. */
    static Path fileOf(Path directory, int rank) {
        return directory.resolve("rank." + rank);
    }

    /** Writes one line (without its terminator) that {@code rank} wrote to stdout or stderr. */
    void line(int rank, boolean stderr, String line) {
        String text = line;
        if (tag) {
            text = "[" + rank + "] " + text;
        }
        if (timestamp) {
            text = "[" + TIMESTAMP.format(LocalDateTime.now()) + "] " + text;
        }
        PrintWriter w;
        if (files != null && rank >= 0 && rank < files.length) {
            w = files[rank];
        } else {
            w = stderr ? err : out;
        }
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

    /** {@code t}'s stack trace as {@code rank}'s stderr, every line prefixed with {@code [rank R] }. */
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
        // a rank process's main runs inside Netty's FastThreadLocalThread.runWithFastThreadLocal (RankMain), and
        // under --srun-rank inside picocli's run of the command line
        return className.startsWith("jdk.internal.reflect.") || className.equals("java.lang.reflect.Method")
                || className.equals("java.lang.Thread") || className.startsWith("io.mpirunj.launcher.")
                || className.equals("io.netty.util.concurrent.FastThreadLocalThread")
                || className.startsWith("picocli.CommandLine");
    }

    void flush() {
        synchronized (out) {
            out.flush();
        }
        synchronized (err) {
            err.flush();
        }
        if (files != null) {
            for (PrintWriter w : files) {
                synchronized (w) {
                    w.flush();
                }
            }
        }
    }

    /** Flushes everything and closes the per-rank files (the console streams stay open). */
    @Override
    public void close() {
        flush();
        if (files != null) {
            for (PrintWriter w : files) {
                synchronized (w) {
                    w.close();
                }
            }
        }
    }
}
