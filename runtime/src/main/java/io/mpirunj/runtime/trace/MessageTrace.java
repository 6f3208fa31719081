package io.mpirunj.runtime.trace;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.mpirunj.io.IoErrors;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The message trace of a job ({@code mpirun-j --trace FILE}): one JSON object per line, written when
 * the job's transports close; events are buffered in memory until then, so tracing costs one clock read
 * and one small object per message (Jackson writes the lines at the end).
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
    private final ConcurrentLinkedQueue<Event> events = new ConcurrentLinkedQueue<>();
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

    /** One line of the file; a delivery has no tag or size (the matching send has them). */
    @JsonPropertyOrder({"event", "src", "dst", "seq", "tag", "bytes", "ns"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private record Event(String event, int src, int dst, long seq, Integer tag, Long bytes, long ns) {
    }

    /** Built by the last transport to close, only in a traced job. */
    private static final class Json {
        static final ObjectWriter LINE = new ObjectMapper().writerFor(Event.class);
    }

    void send(int src, int dst, long seq, int tag, long bytes, long ns) {
        events.add(new Event("send", src, dst, seq, tag, bytes, ns));
    }

    void deliver(int src, int dst, long seq, long ns) {
        events.add(new Event("deliver", src, dst, seq, null, null, ns));
    }

    synchronized void opened() {
        open++;
    }

    /** A transport closed; the last one writes the file. */
    synchronized void closed() {
        if (--open == 0) {
            try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                for (Event e : events) {
                    w.write(Json.LINE.writeValueAsString(e));
                    w.newLine();
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the message trace " + file + ": " + IoErrors.reason(e, file), e);
            }
        }
    }
}
