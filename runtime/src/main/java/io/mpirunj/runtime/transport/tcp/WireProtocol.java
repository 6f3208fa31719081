package io.mpirunj.runtime.transport.tcp;

/**
 * Constants of the rank-to-rank TCP protocol (see {@code wire.proto} for the message schemas).
 *
 * <pre>
 * connection:  connector                                   acceptor
 *              [u32 len][Hello]                ───────────►
 *                                              ◄─────────── [u32 len][HelloReply]
 *              frame, frame, ...               ───────────►   (connector sends, acceptor receives)
 *              ...GOODBYE frame                ◄──────────►   (either side, when closing on purpose)
 *
 * frame:       +--------------+------------------+---------------------+-------------------+
 *              | u32 length   | varint headerLen | FrameHeader (proto) | payload           |
 *              | big-endian   | 1..2 bytes       | headerLen bytes     | EAGER/DATA only   |
 *              +--------------+------------------+---------------------+-------------------+
 *                             \__________________ length counts these bytes _______________/
 * </pre>
 */
public final class WireProtocol {
    /**
     * Version carried in Hello and HelloReply (and a rank's registration); a peer with another version is refused.
     * 2: the control connection carries {@code FinishFence}. 3: a rank's {@code FinishFence} counts every message it
     * sent, and the launcher tells the ranks not at the fence which are ({@code PeersInFinish}): a rank of version 2
     * would be announced as having sent nothing.
     */
    public static final int VERSION = 3;

    /** Bytes of the big-endian length prefix in front of every handshake message and frame. */
    public static final int LENGTH_FIELD_BYTES = 4;

    /**
     * Largest frame header accepted. Our own headers are at most 42 bytes; the slack leaves room for
     * fields added later (which older readers skip).
     */
    public static final int MAX_HEADER_BYTES = 256;

    /** Largest Hello / HelloReply accepted. */
    public static final int MAX_HANDSHAKE_BYTES = 1024;

    /** Wire code of the transport-internal GOODBYE frame (not a {@link io.mpirunj.runtime.transport.FrameKind}). */
    public static final int GOODBYE_CODE = 15;

    private WireProtocol() {
    }
}
