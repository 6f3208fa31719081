package io.mpirunj.runtime.transport.tcp;

import io.mpirunj.runtime.transport.Frame;
import io.netty.buffer.ByteBuf;

/**
 * What {@link FrameDecoder} hands to the next handler: a complete frame (with its assembled payload,
 * if any), the end of a DATA or EAGER payload streamed into its target, or the peer's GOODBYE.
 *
 * <p>A flyweight: each decoder reuses one instance, valid only during the {@code channelRead} call
 * that carries it, so the handlers after the decoder must consume it synchronously on the event
 * loop. The payload belongs to this event until a handler {@linkplain #takePayload() takes} it;
 * whatever is left is released by the decoder when the call returns.
 */
final class InboundFrame {
    enum Type {
        /** A frame; {@link #payload()} holds the EAGER (or unstreamed DATA) payload, else null. */
        FRAME,
        /** A DATA or EAGER payload was copied into the buffer from {@code FrameSink.dataTarget}. */
        STREAMED,
        /** The peer is closing this connection on purpose. */
        GOODBYE
    }

    private Type type;
    private Frame frame;
    private ByteBuf payload;

    void set(Type type, Frame frame, ByteBuf payload) {
        this.type = type;
        this.frame = frame;
        this.payload = payload;
    }

    /** Forgets the event and returns the payload no handler took (the caller releases it), or null. */
    ByteBuf clear() {
        ByteBuf left = payload;
        type = null;
        frame = null;
        payload = null;
        return left;
    }

    Type type() {
        return type;
    }

    /** The frame (null for GOODBYE). */
    Frame frame() {
        return frame;
    }

    /** The payload, still owned by this event. */
    ByteBuf payload() {
        return payload;
    }

    /** Takes ownership of the payload (null if none): the caller now releases it. */
    ByteBuf takePayload() {
        ByteBuf p = payload;
        payload = null;
        return p;
    }

    @Override
    public String toString() {
        return type == Type.GOODBYE ? "GOODBYE" : type + " " + frame;
    }
}
