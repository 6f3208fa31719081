package io.mpirunj.launcher;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.util.function.IntSupplier;

/**
 * The {@code System.out} or {@code System.err} of a threads-mode job: bytes written by a rank's
 * threads are collected per rank and handed to {@link RankOutput} a whole line at a time (tagged
 * with the rank under {@code --tag-output}); bytes written by any other thread go straight to the
 * stream this one replaced. Thread-safe.
 */
final class RankRoutingStream extends OutputStream {
    /** Returned by the rank supplier for threads that belong to no rank. */
    static final int NO_RANK = -1;

    private final PrintStream fallback;
    private final RankOutput output;
    private final boolean stderr;
    private final Charset charset;
    private final IntSupplier currentRank;
    private final ByteArrayOutputStream[] pending;

    RankRoutingStream(PrintStream fallback, RankOutput output, boolean stderr, Charset charset, int size,
            IntSupplier currentRank) {
        this.fallback = fallback;
        this.output = output;
        this.stderr = stderr;
        this.charset = charset;
        this.currentRank = currentRank;
        this.pending = new ByteArrayOutputStream[size];
        for (int r = 0; r < size; r++) {
            pending[r] = new ByteArrayOutputStream(128);
        }
    }

    /** A PrintStream over this stream, encoding as {@code charset}, flushing on every newline. */
    PrintStream printStream() {
        return new PrintStream(this, true, charset);
    }

    // The charset only carries text from the rank's PrintStream to RankOutput's writers, which
    // encode it again for the real stdout/stderr; any charset that holds every char will do.

    @Override
    public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        int rank = currentRank.getAsInt();
        if (rank < 0 || rank >= pending.length) {
            fallback.write(b, off, len);
            return;
        }
        ByteArrayOutputStream buf = pending[rank];
        synchronized (buf) {
            int start = off;
            int end = off + len;
            for (int i = off; i < end; i++) {
                if (b[i] == '\n') {
                    buf.write(b, start, i - start);
                    emit(rank, buf);
                    start = i + 1;
                }
            }
            buf.write(b, start, end - start);
        }
    }

    /** Emits what {@code rank} wrote without a final newline yet (called when the rank ends). */
    void flushRank(int rank) {
        ByteArrayOutputStream buf = pending[rank];
        synchronized (buf) {
            if (buf.size() > 0) {
                emit(rank, buf);
            }
        }
    }

    private void emit(int rank, ByteArrayOutputStream buf) {
        String line = buf.toString(charset);
        if (line.endsWith("\r")) {
            line = line.substring(0, line.length() - 1);
        }
        buf.reset();
        output.line(rank, stderr, line);
    }

    @Override
    public void flush() {
        fallback.flush();
    }
}
