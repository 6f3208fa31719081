package io.mpirunj.runtime.transport;

/** What a frame between two ranks carries. The numeric codes are the wire values. */
public enum FrameKind {
    /** A whole small message; payload = the message bytes. */
    EAGER(1),
    /** Request to send a large message; no payload. Carries context, tag, length, sendId. */
    RTS(2),
    /** Clear to send: the receiver matched an RTS. Carries sendId (sender's) and recvId (receiver's). */
    CTS(3),
    /** The payload of a large message, addressed by recvId. */
    DATA(4),
    /** Eager flow control: the receiver returns {@code length} bytes of eager credit to the sender. */
    CREDIT(5);

    private final int code;

    FrameKind(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public static FrameKind fromCode(int code) {
        switch (code) {
            case 1: return EAGER;
            case 2: return RTS;
            case 3: return CTS;
            case 4: return DATA;
            case 5: return CREDIT;
            default: throw new IllegalArgumentException("frame kind code=" + code + " (expected: 1..5)");
        }
    }
}
