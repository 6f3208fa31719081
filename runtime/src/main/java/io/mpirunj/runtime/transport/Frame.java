package io.mpirunj.runtime.transport;

/**
 * The header of one frame between two ranks (the payload travels beside it as raw bytes). The
 * source rank is implied by the connection. Immutable.
 *
 * <ul>
 *   <li>EAGER: context, tag, length (= payload bytes)</li>
 *   <li>RTS: context, tag, length (of the message to come), sendId</li>
 *   <li>CTS: sendId, recvId</li>
 *   <li>DATA: recvId, length (= payload bytes)</li>
 *   <li>CREDIT: length (= eager bytes the receiver has matched, returned to the sender)</li>
 * </ul>
 */
public final class Frame {
    private final FrameKind kind;
    private final int context;
    private final int tag;
    private final int length;
    private final long sendId;
    private final long recvId;

    public Frame(FrameKind kind, int context, int tag, int length, long sendId, long recvId) {
        this.kind = kind;
        this.context = context;
        this.tag = tag;
        this.length = length;
        this.sendId = sendId;
        this.recvId = recvId;
    }

    public static Frame eager(int context, int tag, int length) {
        return new Frame(FrameKind.EAGER, context, tag, length, 0, 0);
    }

    public static Frame rts(int context, int tag, int length, long sendId) {
        return new Frame(FrameKind.RTS, context, tag, length, sendId, 0);
    }

    public static Frame cts(long sendId, long recvId) {
        return new Frame(FrameKind.CTS, 0, 0, 0, sendId, recvId);
    }

    public static Frame data(long recvId, int length) {
        return new Frame(FrameKind.DATA, 0, 0, length, 0, recvId);
    }

    public static Frame credit(int bytes) {
        return new Frame(FrameKind.CREDIT, 0, 0, bytes, 0, 0);
    }

    public FrameKind kind() {
        return kind;
    }

    public int context() {
        return context;
    }

    public int tag() {
        return tag;
    }

    /** Payload bytes (EAGER, DATA) or announced message bytes (RTS). */
    public int length() {
        return length;
    }

    public long sendId() {
        return sendId;
    }

    public long recvId() {
        return recvId;
    }

    /** True if a payload of {@link #length()} bytes follows this header on the wire. */
    public boolean hasPayload() {
        return kind == FrameKind.EAGER || kind == FrameKind.DATA;
    }

    @Override
    public String toString() {
        return kind + "[ctx=" + context + ", tag=" + tag + ", len=" + length + ", sendId=" + sendId + ", recvId="
                + recvId + "]";
    }
}
