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
 * Where the ranks' output lines end up, one whole line at a time: the launcher's stdout and
 * stderr, or with {@code --output-filename DIR} the file {@code DIR/rank.R} of each rank (its stdout and stderr
 * lines in the order they came). Each line may be prefixed with {@code [timestamp] } ({@code --timestamp-output})
 * and {@code [rank] } ({@code --tag-output}). Launcher messages always go to the launcher's stderr. When writing
 * to the launcher's stdout fails (whatever read it has ended, as {@code | head} does), the
 * {@link #onConsoleClosed} handler runs, once. Thread-safe.
 *
 * <p>Lines of different ranks never mix, but for a line longer than {@link LineSplitter#MAX_PENDING} and rank 0's
 * interactive stdout (prompts, progress bars: {@link LineSplitter}), whose pieces may have other lines between
 * them.
 */
final class RankOutput implements AutoCloseable {
    /** Why a job whose stdout nobody reads stops ({@link #onConsoleClosed}). */
    static final String CONSOLE_CLOSED = "writing to the job's standard output failed (whatever read it has ended, as "
            + "| head does, or it cannot be written)";
    /** The launcher's line when it stops such a job. */
    static final String CONSOLE_CLOSED_REPORT = CONSOLE_CLOSED + "; the job ends with status " + ExitCodes.STDOUT_CLOSED;

    /** {@code --timestamp-output}: local time to the millisecond. */
    static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean tag;
    private final boolean timestamp;
    /** Per rank, with {@code --output-filename}; else null. */
    private final PrintWriter[] files;
    /** Per rank, stdout then stderr: true while a line is unfinished (its next piece gets no prefix). */
    private final boolean[] inLine;
    private final java.util.concurrent.atomic.AtomicBoolean consoleClosed = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile Runnable onConsoleClosed = () -> { };
    /** Sends a prompt out ({@link LineSplitter#IDLE_MS}); made at the first use, null when lines are marked or filed. */
    private java.util.concurrent.ScheduledExecutorService idle;

    private RankOutput(PrintWriter out, PrintWriter err, JobSpec.OutputOptions options, int size,
            PrintWriter[] files) {
        this.out = out;
        this.err = err;
        this.tag = options.tag();
        this.timestamp = options.timestamp();
        this.files = files;
        this.inLine = new boolean[2 * size];
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
        return new RankOutput(out, err, options, size, files);
    }

    /** The file of {@code rank} in an output directory. */
    static Path fileOf(Path directory, int rank) {
        return directory.resolve("rank." + rank);
    }

    /** Writes one line (without its terminator) that {@code rank} wrote to stdout or stderr. */
    void line(int rank, boolean stderr, String line) {
        text(rank, stderr, line, true);
    }

    /**
     * Writes what {@code rank} wrote to stdout or stderr: the end of a line ({@code endsLine}), or a piece of one
     * that goes on ({@link LineSplitter}); the prefixes come at the start of a line only.
     */
    void text(int rank, boolean stderr, String text, boolean endsLine) {
        PrintWriter w;
        if (files != null && rank >= 0 && rank < files.length) {
            w = files[rank];
        } else {
            w = stderr ? err : out;
        }
        int at = rank >= 0 && 2 * rank + 1 < inLine.length ? 2 * rank + (stderr ? 1 : 0) : -1;
        boolean closed;
        synchronized (w) {
            if (at < 0 || !inLine[at]) {
                if (timestamp) {
                    w.print("[" + TIMESTAMP.format(LocalDateTime.now()) + "] ");
                }
                if (tag) {
                    w.print("[" + rank + "] ");
                }
            }
            if (endsLine) {
                w.println(text);
            } else {
                w.print(text);
            }
            w.flush();
            if (at >= 0) {
                inLine[at] = !endsLine;
            }
            // the launcher's stdout is a PrintWriter over System.out ({@link MpirunJ#main}), whose checkError asks it
            closed = w == out && out.checkError();
        }
        if (closed && consoleClosed.compareAndSet(false, true)) {
            onConsoleClosed.run();
        }
    }

    /**
     * The scheduler of rank 0's stdout {@link LineSplitter}, which sends an unfinished line out when nothing is added
     * to it for a while (a prompt before a read of stdin); null with {@code --tag-output}, {@code --timestamp-output} or
     * {@code --output-filename}, where output is read as marked lines, not at a console.
     */
    synchronized java.util.concurrent.ScheduledExecutorService idleScheduler() {
        if (tag || timestamp || files != null) {
            return null;
        }
        if (idle == null) {
            idle = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "mpirunj-output-idle");
                t.setDaemon(true);
                return t;
            });
        }
        return idle;
    }

    /** What to do, once, when writing to the launcher's stdout fails (the job then stops: nobody reads it). */
    void onConsoleClosed(Runnable handler) {
        this.onConsoleClosed = handler;
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
        synchronized (this) {
            if (idle != null) {
                idle.shutdownNow();
            }
        }
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
