package io.mpirunj.runtime.fabric;

/**
 * The arbiter service's wire protocol (one TCP connection per rank process, Java data streams):
 * <pre>
 *   rank -> service  HELLO    byte 1, int rank
 *   service -> rank  ORIGIN   byte 1, UTF file  (16 bytes both map: wall ns of model time 0 on this host's
 *                             monotonic clock, see {@link ModelOrigin})
 *   rank -> service  SUBMIT   byte 2, long id, int src, int dst, long bytes, long sentAt (the sender's clock: model ns)
 *   service -> rank  DELIVER  byte 3, long id                        (to the sender: hand the frame on now)
 *   service -> rank  ARRIVING byte 5, long id, int src, double at    (to the receiver: the next message from
 *                             src was delivered at model time at)
 *   rank -> service  NOTED    byte 6, long id   (the receiver's answer; only then the service DELIVERs to
 *                             the sender, so the receiver always knows a message's time before it comes)
 *   service -> rank  LOST     byte 4, long id, boolean data, UTF link, double droppedAt, int src, int dst
 *                             (to the sender, and to the receiver so it can name the link)
 * </pre>
 * Each message starts with its kind's {@link #code}. Message ids are the sender's
 * ({@code rank << 40 | counter}), unique in the job.
 */
enum ArbiterProtocol {
    // rank -> service
    HELLO(1), SUBMIT(2), NOTED(6),
    // service -> rank
    ORIGIN(1), DELIVER(3), LOST(4), ARRIVING(5);

    /** The message's first byte on the wire (unique in each direction). */
    final byte code;

    ArbiterProtocol(int code) {
        this.code = (byte) code;
    }
}
