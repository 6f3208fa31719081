package io.mpirunj.launcher;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Cuts one output stream of a rank into lines, at {@code '\n'} only: a {@code '\r'} is text, so a progress line's
 * carriage returns and a CRLF's CR reach the console as the rank wrote them. An unfinished line is held up to
 * {@link #MAX_PENDING} bytes; a longer one goes on in pieces of about that size, cut between characters (other
 * ranks' lines may then come between its pieces), so a rank printing without newlines for hours cannot fill the
 * launcher's memory. The ranks as processes ({@link ProcessJob}) and as threads ({@link RankRoutingStream}) both
 * cut their output here.
 *
 * <p>Interactive (with an idle scheduler; for the stdout of the rank that reads stdin): what the rank wrote up to a
 * {@code '\r'} goes out at once (a progress bar moves), and an unfinished line that nothing has been added to for
 * {@link #IDLE_MS} goes out as a piece: a prompt ({@code System.out.print("n? ")}, then a read of stdin) is seen
 * before the answer is typed. Other ranks' lines may then come between its pieces, as in Open MPI. Thread-safe.
 */
final class LineSplitter {
    /** The longest unfinished line held: 1 MiB. */
    static final int MAX_PENDING = 1 << 20;
    /** How long an unfinished line waits for more before it goes out as a piece (interactive). */
    static final long IDLE_MS = 500;

    /**
     * Where the bytes go, as the rank wrote them: a whole line without its {@code '\n'} ({@code endsLine}) or a piece
     * of one that goes on. {@code b} is the splitter's own: read it before returning.
     */
    interface Sink {
        void bytes(byte[] b, int off, int len, boolean endsLine);
    }

    /** The rank writes UTF-8: a piece cut at the bound ends between characters. */
    private final boolean utf8;
    private final int maxPending;
    private final Sink sink;
    /** The unfinished line, its array lent to the sink. */
    private final LentBuffer pending = new LentBuffer();
    /** Sends an unfinished line out after {@link #IDLE_MS} without more (null: not interactive). */
    private final ScheduledExecutorService idle;
    /** Counts the writes, so that the idle check sees whether any came since it was scheduled. */
    private long writes;
    private boolean idleCheckScheduled;
    /** True once a piece of the current line has gone out: the line's end must follow, even an empty one. */
    private boolean lineOpen;

    /** {@code idle}: see the class comment (null: an unfinished line waits for its end, or the bound). */
    LineSplitter(Charset charset, ScheduledExecutorService idle, Sink sink) {
        this(charset, MAX_PENDING, idle, sink);
    }

    /** With another bound (tests). */
    LineSplitter(Charset charset, int maxPending, ScheduledExecutorService idle, Sink sink) {
        this.utf8 = StandardCharsets.UTF_8.equals(charset);
        this.maxPending = maxPending;
        this.idle = idle;
        this.sink = sink;
    }

    synchronized void write(byte[] b, int off, int len) {
        int start = off;
        int end = off + len;
        for (int i = off; i < end; i++) {
            if (b[i] == '\n') {
                pending.write(b, start, i - start);
                emit(true);
                start = i + 1;
            } else if (b[i] == '\r' && idle != null || pending.size() + (i + 1 - start) >= maxPending) {
                pending.write(b, start, i + 1 - start);
                emitPiece(b[i] == '\r');
                start = i + 1;
            }
        }
        pending.write(b, start, end - start);
        writes++;
        if (idle != null && pending.size() > 0 && !idleCheckScheduled) {
            scheduleIdleCheck(writes);
        }
    }

    private void scheduleIdleCheck(long seen) {
        idleCheckScheduled = true;
        try {
            idle.schedule(() -> idleCheck(seen), IDLE_MS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            idleCheckScheduled = false; // the job's output is closing: its end emits what is left
        }
    }

    /** An unfinished line that had no write since {@code seen} goes out as a piece; else another look later. */
    private synchronized void idleCheck(long seen) {
        idleCheckScheduled = false;
        if (pending.size() == 0) {
            return;
        }
        if (writes == seen) {
            emitPiece(true);
        } else {
            scheduleIdleCheck(writes);
        }
    }

    /**
     * The stream ended (or its rank did): an unfinished last line goes out as a line ({@code endLine}: its end is
     * added), or as the piece it is.
     */
    synchronized void finish(boolean endLine) {
        if (endLine ? pending.size() > 0 || lineOpen : pending.size() > 0) {
            emit(endLine);
        }
    }

    private void emit(boolean endsLine) {
        lineOpen = !endsLine;
        sink.bytes(pending.array(), 0, pending.size(), endsLine);
        pending.reset();
    }

    /**
     * What is held goes out as a piece of a line that goes on; {@code whole}: all of it, else (at the bound) up to
     * the last whole UTF-8 character, the rest staying for the next piece.
     */
    private void emitPiece(boolean whole) {
        byte[] held = whole || !utf8 ? null : pending.toByteArray();
        int cut = held == null ? 0 : utf8Boundary(held);
        if (held == null || cut == held.length || cut == 0) {
            emit(false);
            return;
        }
        pending.reset();
        lineOpen = true;
        sink.bytes(held, 0, cut, false);
        pending.write(held, cut, held.length - cut);
    }

    /** The length of {@code b}'s longest prefix that ends with a whole UTF-8 character. */
    static int utf8Boundary(byte[] b) {
        int lead = b.length;
        while (lead > 0 && (b[lead - 1] & 0xC0) == 0x80) {
            lead--; // continuation bytes
        }
        if (lead == 0 || (b[lead - 1] & 0xC0) != 0xC0) {
            return b.length; // ASCII last, or continuation bytes without a lead: nothing whole to wait for
        }
        int first = b[lead - 1] & 0xFF;
        int size = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : 2;
        return b.length - (lead - 1) >= size ? b.length : lead - 1;
    }
}
