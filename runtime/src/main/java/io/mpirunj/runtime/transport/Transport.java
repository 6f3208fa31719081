package io.mpirunj.runtime.transport;

import io.mpirunj.Buffer;
import io.mpirunj.runtime.p2p.Payloads;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;

/**
 * Moves frames between the ranks of one job. One instance per rank. Implementations: the in-JVM
 * transport (ranks as threads) and Netty TCP (ranks as processes).
 *
 * <p>Threading: {@link #send} may be called from any thread and never blocks. Inbound frames are
 * delivered to the {@link FrameSink} on the transport's own threads (for TCP, the Netty event loop,
 * which must never block), in the order the peer sent them.
 */
public interface Transport extends AutoCloseable {
    /** World rank of the local endpoint. */
    int rank();

    /** Number of ranks in the job. */
    int size();

    /** Starts delivering inbound frames to {@code sink}. Called once, before any send. */
    void start(FrameSink sink);

    /**
     * Queues one frame for world rank {@code dst}. Ownership of {@code payload} (may be null for
     * frames without payload) passes to the transport, which releases it once written. The frames
     * sent to one destination leave in the order of the calls. {@code onWritten} runs once the frame
     * has been handed to the network or to the peer (the sender may then reuse its memory), or with
     * the cause if it could not be; it may run on any thread, possibly before this method returns.
     */
    void send(int dst, Frame frame, ByteBuf payload, WriteListener onWritten);

    /**
     * As {@link #send}, with {@code src}'s bytes as the payload, converted to the wire's layout
     * (little-endian elements): for a buffer whose memory is not in it (typed arrays, big-endian
     * typed ByteBuffers), which no ByteBuf can wrap. The caller must leave {@code src} untouched
     * until {@code onWritten} runs. By default {@code src} is copied whole into {@link #allocate}d
     * memory first; a transport that writes large payloads in chunks (TCP) converts one chunk at a
     * time as the connection drains, so a large typed send holds bounded native memory.
     *
     * @throws OutOfMemoryError if the default's copy cannot be allocated (nothing was sent)
     */
    default void sendConverting(int dst, Frame frame, Buffer src, WriteListener onWritten) {
        send(dst, frame, Payloads.copyOf(src, allocate(src.byteLength())), onWritten);
    }

    /**
     * A buffer of {@code bytes} capacity for an outbound payload, of the kind this transport writes
     * best (direct for sockets, heap in-JVM).
     */
    default ByteBuf allocate(int bytes) {
        return PooledByteBufAllocator.DEFAULT.directBuffer(bytes, bytes);
    }

    /**
     * How long a rank waiting on this transport should spin before it yields the core. Short for
     * sockets: the thread that completes the wait (an event loop) may need this very core. Longer
     * in-JVM, where the completing thread is a peer rank already running on another core.
     */
    default long spinBeforeYieldNanos() {
        return 2_000;
    }

    /**
     * How long a rank waiting on this transport should yield the core before it parks (or blocks in
     * the kernel) when this host's ranks outnumber its cores. 0 for sockets: the kernel wakes a
     * blocked waiter, and yielding waiters kept the cores from the ranks that had work. In-JVM the
     * thread a waiter waits for is a runnable peer rank thread of the same JVM, which a yield hands
     * the core to at once, while a parked waiter costs its waker a futex wake-up per message.
     */
    default long crowdedYieldNanos() {
        return 0;
    }

    /**
     * True if {@link #send} has copied a payload's bytes out of its buffer (into the kernel) by the time
     * it calls the write listener, so a payload may wrap the sender's own memory until then. False
     * (the default) if the buffer itself may travel on, as in-JVM where the peer reads it.
     */
    default boolean copiesPayloadBeforeCompletion() {
        return false;
    }

    /**
     * Lets the rank's waiting threads drive this transport's I/O themselves, or null if its own
     * threads deliver the frames (then waiters park until woken).
     */
    default TransportProgress progress() {
        return null;
    }

    /** Closes every connection; later sends fail. Idempotent. */
    @Override
    void close();

    /** Completion callback of {@link #send}. */
    @FunctionalInterface
    interface WriteListener {
        WriteListener NONE = cause -> { };

        /** @param cause null on success */
        void onWritten(Throwable cause);
    }
}
