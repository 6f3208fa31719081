package io.mpirunj.runtime.fabric;

/**
 * The arbiter service's wire protocol (one TCP connection per rank process, Java data streams):
 * <pre>
 *   rank -> service  HELLO    byte 1, int rank
 *   service -> rank  ORIGIN   byte 1, long origin (wall ns of model time 0 on this host's monotonic clock)
 *   rank -> service  SUBMIT   byte 2, long id, int src, int dst, long bytes
 *   service -> rank  DELIVER  byte 3, long id, long origin          (to the sender: hand the frame on now)
 *   service -> rank  LOST     byte 4, long id, boolean data, UTF link, double droppedAt, int src, int dst
 *                             (to the sender, and to the receiver so it can name the link)
 * </pre>
 * Message ids are the sender's ({@code rank << 40 | counter}), unique in the job.
 */
final class ArbiterProtocol {
    static final byte HELLO = 1;
    static final byte ORIGIN = 1;
    static final byte SUBMIT = 2;
    static final byte DELIVER = 3;
    static final byte LOST = 4;

    private ArbiterProtocol() {
    }
}
