package io.mpirunj.launcher;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Where the ranks' output lines end up, one whole line at a time: the launcher's stdout and
 * stderr, or with {@code --output-filename DIR} the file {@code DIR/rank.R} of each rank (its stdout and stderr
 * lines in the order they came). Each line may be prefixed with {@code [timestamp] } ({@code --timestamp-output})
 * and {@code [rank] } ({@code --tag-output}). Launcher messages always go to the launcher's stderr. When writing
 * to the launcher's stdout fails (whatever read it has ended, as {@code | head} does), the
 * {@link #onConsoleClosed} handler runs, once. Thread-safe.
 *
 * <p>What the ranks write passes as bytes ({@link #bytes}): a rank writing an image or other binary data to its
 * stdout gets the same bytes out of the launcher, as from Open MPI's {@code mpirun}. Only where the console is a
 * writer with no byte stream under it (the launcher run inside a test) are they decoded as {@code charset}.
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

    private final Destination out;
    private final Destination err;
    private final boolean tag;
    private final boolean timestamp;
    /** Per rank, with {@code --output-filename}; else null. */
    private final Destination[] files;
    /** The launcher's stdout and stdin are a terminal (a user at a shell). */
    private final boolean terminal;
    /** Per rank, stdout then stderr: true while a line is unfinished (its next piece gets no prefix). */
    private final boolean[] inLine;
    private final java.util.concurrent.atomic.AtomicBoolean consoleClosed = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile Runnable onConsoleClosed = () -> { };
    /** Sends a prompt out ({@link LineSplitter#IDLE_MS}); made at the first use, null when lines are marked or filed. */
    private java.util.concurrent.ScheduledExecutorService idle;

    /**
     * The charset of the ranks' text: what a rank process's {@code System.out} encodes with (JDK 18 and later name it
     * {@code stdout.encoding}; JDK 17 {@code sun.stdout.encoding} at a console, else the platform's). Ranks as threads
     * write in it, and launcher text among the ranks' output (prefixes, stack traces) is encoded in it.
     */
    static final Charset RANK_TEXT = charsetOf(System.getProperty("stdout.encoding",
            System.getProperty("sun.stdout.encoding")));

    private static Charset charsetOf(String name) {
        try {
            return name == null ? Charset.defaultCharset() : Charset.forName(name);
        } catch (IllegalArgumentException e) {
            return Charset.defaultCharset();
        }
    }

    /**
     * One place output goes: a console or a rank's file. Where it has a byte stream, a line (its prefixes, its bytes,
     * its end) is gathered and goes out in one write at {@link #flushFailed}, so that no other writer of the stream
     * comes between its parts; text is encoded as {@link #RANK_TEXT}. Where it has none (a writer over a
     * StringWriter in tests), the bytes are decoded. Locked by its user.
     */
    private static final class Destination {
        final PrintWriter writer;
        final PrintStream stream;
        /** What goes to {@link #stream} at the next flush (reused; as long as the longest piece, 1 MiB at most). */
        private final LentBuffer gathered;

        Destination(PrintWriter writer, PrintStream stream) {
            this.writer = writer;
            this.stream = stream;
            this.gathered = stream == null ? null : new LentBuffer();
        }

        void text(String text) {
            if (stream != null) {
                gathered.writeBytes(text.getBytes(RANK_TEXT));
            } else {
                writer.print(text);
            }
        }

        void bytes(byte[] b, int off, int len) {
            if (stream != null) {
                gathered.write(b, off, len);
            } else {
                writer.print(new String(b, off, len, RANK_TEXT));
            }
        }

        /** The '\n' that ended the line in the rank's output (the splitter takes it out). */
        void endLine() {
            if (stream != null) {
                gathered.write('\n');
            } else {
                writer.print('\n');
            }
        }

        /** Sends what was gathered and flushes; true if writing has failed (a closed pipe). */
        boolean flushFailed() {
            if (stream == null) {
                writer.flush();
                return writer.checkError();
            }
            if (writer != null) {
                writer.flush(); // what the launcher wrote through its writer came first
            }
            stream.write(gathered.array(), 0, gathered.size());
            gathered.reset();
            stream.flush();
            return stream.checkError();
        }

        void close() {
            if (stream != null) {
                stream.close();
            } else {
                writer.close();
            }
        }
    }

    private RankOutput(Destination out, Destination err, JobSpec.OutputOptions options, int size,
            Destination[] files, boolean terminal) {
        this.out = out;
        this.err = err;
        this.terminal = terminal;
        this.tag = options.tag();
        this.timestamp = options.timestamp();
        this.files = files;
        this.inLine = new boolean[2 * size];
    }

    /** As {@link #open(PrintWriter, PrintStream, PrintWriter, PrintStream, JobSpec.OutputOptions, int)}, text only. */
    static RankOutput open(PrintWriter out, PrintWriter err, JobSpec.OutputOptions options, int size)
            throws IOException {
        return open(out, null, err, null, options, size);
    }

    /**
     * The output of a job of {@code size} ranks. {@code outBytes} and {@code errBytes} are the byte streams under
     * {@code out} and {@code err} (the launcher's {@code System.out} and {@code System.err}), or null where there are
     * none. With an output directory, creates it and one file per rank ({@code rank.0}, {@code rank.1}, ...;
     * existing files are replaced).
     *
     * @throws IOException if the directory or a file cannot be created
     */
    static RankOutput open(PrintWriter out, PrintStream outBytes, PrintWriter err, PrintStream errBytes,
            JobSpec.OutputOptions options, int size) throws IOException {
        Destination[] files = null;
        if (options.directory() != null) {
            Files.createDirectories(options.directory());
            files = new Destination[size];
            try {
                for (int r = 0; r < size; r++) {
                    PrintStream file = new PrintStream(new BufferedOutputStream(
                            Files.newOutputStream(fileOf(options.directory(), r))), false, RANK_TEXT);
                    files[r] = new Destination(null, file);
                }
            } catch (IOException e) {
                for (Destination f : files) {
                    if (f != null) {
                        f.close();
                    }
                }
                throw e;
            }
        }
        return new RankOutput(new Destination(out, outBytes), new Destination(err, errBytes), options, size, files,
                outBytes != null && System.console() != null);
    }

    /**
     * Whether an unfinished last line of a rank's output gets its end added: where lines are marked (tags,
     * timestamps), and on a terminal, so that the shell's prompt starts a line of its own. Elsewhere (a file, a pipe)
     * the output stays as the rank wrote it, byte for byte.
     */
    boolean endsUnfinishedLines() {
        return tag || timestamp || files == null && terminal;
    }

    /** The file of {@code rank} in an output directory. */
    static Path fileOf(Path directory, int rank) {
        return directory.resolve("rank." + rank);
    }

    /** Writes one line (without its terminator) that {@code rank} wrote to stdout or stderr. */
    void line(int rank, boolean stderr, String line) {
        text(rank, stderr, line, true);
    }

    /** As {@link #bytes}, for text the launcher made for the rank (a stack trace). */
    void text(int rank, boolean stderr, String text, boolean endsLine) {
        write(rank, stderr, text, null, 0, 0, endsLine);
    }

    /**
     * Writes what {@code rank} wrote to stdout or stderr, as it wrote it: the end of a line ({@code endsLine}; the
     * line's terminator is added), or a piece of one that goes on ({@link LineSplitter}); the prefixes come at the
     * start of a line only.
     */
    void bytes(int rank, boolean stderr, byte[] b, int off, int len, boolean endsLine) {
        write(rank, stderr, null, b, off, len, endsLine);
    }

    /** {@code text}, or if null {@code b[off, off + len)}. */
    private void write(int rank, boolean stderr, String text, byte[] b, int off, int len, boolean endsLine) {
        Destination d;
        if (files != null && rank >= 0 && rank < files.length) {
            d = files[rank];
        } else {
            d = stderr ? err : out;
        }
        int at = rank >= 0 && 2 * rank + 1 < inLine.length ? 2 * rank + (stderr ? 1 : 0) : -1;
        boolean closed;
        synchronized (d) {
            if (at < 0 || !inLine[at]) {
                if (timestamp) {
                    d.text("[" + TIMESTAMP.format(LocalDateTime.now()) + "] ");
                }
                if (tag) {
                    d.text("[" + rank + "] ");
                }
            }
            if (text != null) {
                d.text(text);
            } else {
                d.bytes(b, off, len);
            }
            if (endsLine) {
                d.endLine();
            }
            if (at >= 0) {
                inLine[at] = !endsLine;
            }
            // the launcher's stdout: System.out, or a PrintWriter over it ({@link MpirunJ#main}) whose checkError asks it
            closed = d.flushFailed() && d == out;
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
            err.text("mpirun-j: " + message);
            err.endLine();
            err.flushFailed();
        }
    }

    /** {@code t}'s stack trace as {@code rank}'s stderr, every line prefixed with {@code [rank R] } unless tagged. */
    void stackTrace(int rank, Throwable t) {
        for (String l : stackTraceLines(rankPrefix(rank, tag), t)) {
            line(rank, true, l);
        }
    }

    /**
     * What a rank's own error lines start with: {@code [rank R] }, or nothing where the launcher tags every line with
     * its rank ({@code --tag-output}: {@code [1] [rank 1] ...} said it twice).
     */
    static String rankPrefix(int rank, boolean tagged) {
        return tagged ? "" : "[rank " + rank + "] ";
    }

    /**
     * {@code t}'s stack trace as lines, each prefixed with {@code prefix} ({@link #rankPrefix}), without the
     * launcher's own frames below the user's {@code main} (as {@code java} itself shows it).
     */
    static String[] stackTraceLines(String prefix, Throwable t) {
        trimLauncherFrames(t, Collections.newSetFromMap(new IdentityHashMap<>()));
        StringWriter sw = new StringWriter();
        t.printStackTrace(new PrintWriter(sw));
        String[] lines = sw.toString().split("\\R");
        for (int i = 0; i < lines.length; i++) {
            lines[i] = prefix + lines[i];
        }
        return lines;
    }

    /**
     * Trims {@link #userFrames} off {@code t}, its causes and its suppressed exceptions (those of a try-with-resources
     * statement it left: {@code world.close()} before Mpi.finish), each once.
     */
    private static void trimLauncherFrames(Throwable t, Set<Throwable> done) {
        if (t == null || !done.add(t)) {
            return;
        }
        t.setStackTrace(userFrames(t.getStackTrace()));
        trimLauncherFrames(t.getCause(), done);
        for (Throwable s : t.getSuppressed()) {
            trimLauncherFrames(s, done);
        }
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
            out.flushFailed();
        }
        synchronized (err) {
            err.flushFailed();
        }
        if (files != null) {
            for (Destination f : files) {
                synchronized (f) {
                    f.flushFailed();
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
            for (Destination f : files) {
                synchronized (f) {
                    f.close();
                }
            }
        }
    }
}
