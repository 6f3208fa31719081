package io.mpirunj.launcher;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.util.function.IntSupplier;

/**
 * The {@code System.out} or {@code System.err} of a threads-mode job: bytes written by a rank's
 * threads are collected per rank and handed to {@link RankOutput} a whole line at a time ({@link LineSplitter};
 * tagged with the rank under {@code --tag-output}); bytes written by any other thread go straight to the
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
    private final LineSplitter[] pending;

    RankRoutingStream(PrintStream fallback, RankOutput output, boolean stderr, Charset charset, int size,
            IntSupplier currentRank) {
        this.fallback = fallback;
        this.output = output;
        this.stderr = stderr;
        this.charset = charset;
        this.currentRank = currentRank;
        this.pending = new LineSplitter[size];
        for (int r = 0; r < size; r++) {
            int rank = r;
            // interactive: rank 0's stdout (as for rank processes: the rank whose prompts a user answers)
            pending[r] = new LineSplitter(charset, r == 0 && !stderr ? output.idleScheduler() : null,
                    (b, off, len, endsLine) -> output.bytes(rank, stderr, b, off, len, endsLine));
        }
    }

    /** A PrintStream over this stream, encoding as {@code charset}, flushing on every newline. */
    PrintStream printStream() {
        return new PrintStream(this, true, charset);
    }

    // The bytes go out as they are: the charset is the one the ranks' text goes out in (as a rank process's own
    // System.out encodes it).

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
        pending[rank].write(b, off, len); // thread-safe itself: a rank's threads may write at once
    }

    /** Emits what {@code rank} wrote without a final newline yet (called when the rank ends). */
    void flushRank(int rank) {
        pending[rank].finish(output.endsUnfinishedLines());
    }

    @Override
    public void flush() {
        fallback.flush();
    }
}
