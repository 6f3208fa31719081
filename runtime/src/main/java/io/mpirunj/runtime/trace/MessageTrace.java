package io.mpirunj.runtime.trace;

import io.mpirunj.io.IoErrors;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The message trace of a job ({@code mpirun-j --trace FILE}): one JSON object per line, written when
 * the job's transports close; events are buffered in memory until then, so tracing costs one clock read
 * and one small object per message.
 * <pre>
 *   {"event":"send","src":0,"dst":1,"seq":0,"tag":7,"bytes":1024,"ns":12345}
 *   {"event":"deliver","src":0,"dst":1,"seq":0,"ns":25012}
 * </pre>
 * {@code seq} numbers the messages from src to dst (the k-th send matches the k-th delivery); {@code ns}
 * is the job's clock ({@code Comm.wtimeNs}: aligned across ranks as threads, and across processes of
 * one host; on an emulated fabric, model time x the scale). Ranks as processes write
 * {@code FILE.rN}, one file per rank; {@code mpirun-j trace} reads both layouts.
 */
public final class MessageTrace {
    /** Environment variable / property naming the trace file. */
    public static final String ENV = "MPIRUNJ_TRACE";
    public static final String PROP = "mpirunj.trace";

    private final Path file;
    private final ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
    private int open;

    public MessageTrace(Path file) {
        this.file = file;
    }

    /** The trace file the settings name, or null. */
    public static Path fileFrom(Map<String, String> env) {
        String v = System.getProperty(PROP, env.get(ENV));
        return v == null || v.isBlank() ? null : Path.of(v.trim());
    }

    public Path file() {
        return file;
    }

    void send(int src, int dst, long seq, int tag, long bytes, long ns) {
        lines.add(String.format(Locale.ROOT, "{\"event\":\"send\",\"src\":%d,\"dst\":%d,\"seq\":%d,\"tag\":%d,"
                + "\"bytes\":%d,\"ns\":%d}", src, dst, seq, tag, bytes, ns));
    }

    void deliver(int src, int dst, long seq, long ns) {
        lines.add(String.format(Locale.ROOT, "{\"event\":\"deliver\",\"src\":%d,\"dst\":%d,\"seq\":%d,\"ns\":%d}",
                src, dst, seq, ns));
    }

    synchronized void opened() {
        open++;
    }

    /** A transport closed; the last one writes the file. */
    synchronized void closed() {
        if (--open == 0) {
            try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                for (String line : lines) {
                    w.write(line);
                    w.newLine();
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the message trace " + file + ": " + IoErrors.reason(e, file), e);
            }
        }
    }
}
