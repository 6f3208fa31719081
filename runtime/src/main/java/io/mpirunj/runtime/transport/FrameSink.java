package io.mpirunj.runtime.transport;

import io.mpirunj.Buffer;
import io.netty.buffer.ByteBuf;

/**
 * Receives the frames a transport reads (implemented by the point-to-point engine). Called on the
 * transport's threads: implementations never block.
 */
public interface FrameSink {
    /**
     * A frame from world rank {@code src}. Ownership of {@code payload} (null for frames without
     * one) passes to the sink, which releases it.
     */
    void onFrame(int src, Frame frame, ByteBuf payload);

    /**
     * For a DATA frame, or an EAGER frame whose header has just arrived (the sink may match it now):
     * the user buffer its payload belongs in, so a transport can copy the bytes
     * there as they arrive instead of assembling the frame first. If the returned buffer is shorter
     * than the frame (a truncated receive), the transport stores its first bytes and discards the
     * rest. When the whole payload has been consumed, the transport calls {@link #onDataStreamed}.
     * Returns null if the sink wants the payload through {@link #onFrame} instead.
     */
    Buffer dataTarget(int src, Frame frame);

    /** The payload of a frame whose target came from {@link #dataTarget} has been fully consumed. */
    void onDataStreamed(int src, Frame frame);

    /** The connection to {@code peer} is gone (peer died, dropped, or was refused after connecting). */
    void onPeerFailed(int peer, Throwable cause);

    /**
     * {@code peer} said goodbye and closed its connection to this rank: it left cleanly, and everything it
     * sent here has been delivered. Nothing to do for most sinks (the default); tests wait on it.
     */
    default void onPeerLeft(int peer) {
    }
}
