package io.mpirunj.runtime.transport.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPromise;

/**
 * Writes an {@link OutboundFrame} to a channel as a small pooled prefix buffer (length, header length, header)
 * followed by the payload buffer itself, which passes through uncopied; the socket sends both in one gathering
 * write. Payloads up to {@link #COPY_THRESHOLD_BYTES} are copied into the prefix buffer instead, where one buffer
 * is cheaper than two. A frame whose payload was taken by a {@link ChunkedPayload} (a large heap payload) is
 * written as its prefix alone: {@link OutboundLink} writes the payload after it, chunk by chunk.
 *
 * <p>Not a handler in the pipeline: the link encodes as it writes, so a connection has no outbound handler, and
 * Netty passes flushes and reads straight to the socket.
 *
 * <p>Ownership: takes the payload out of the frame and hands it to the channel (which releases it once written or
 * failed); releases the {@link OutboundFrame}.
 */
final class FrameEncoder {
    /** Payloads up to this size travel inside the prefix buffer. */
    static final int COPY_THRESHOLD_BYTES = 512;

    private FrameEncoder() {
    }

    /**
     * Writes {@code f} to {@code ch} (not flushed); {@code promise} completes when its last byte is written. If the
     * prefix cannot be allocated, {@code promise} fails and the channel's pipeline sees the failure (the link then
     * closes): a frame left out must not let the frames after it arrive as if it had never been sent.
     */
    static void write(Channel ch, OutboundFrame f, ChannelPromise promise) {
        int payloadBytes = f.payloadBytes();
        ByteBuf payload = f.takePayload(); // null: none, or a ChunkedPayload follows
        f.release();
        int prefixBytes = FrameHeaderCodec.prefixSize(f.headerSize());
        boolean inline = payload != null && payloadBytes <= COPY_THRESHOLD_BYTES;
        ByteBuf prefix;
        try {
            prefix = ch.alloc().directBuffer(prefixBytes + (inline ? payloadBytes : 0));
        } catch (Throwable t) { // out of direct memory, say
            if (payload != null) {
                payload.release();
            }
            promise.tryFailure(t);
            if (!promise.isVoid()) { // a void one has told the pipeline already
                ch.pipeline().fireExceptionCaught(t);
            }
            return;
        }
        FrameHeaderCodec.writePrefix(prefix, f.frame(), f.headerSize(), payloadBytes);
        if (inline) {
            prefix.writeBytes(payload, payload.readerIndex(), payloadBytes);
            payload.release();
            ch.write(prefix, promise);
        } else if (payload == null) {
            ch.write(prefix, promise);
        } else {
            ch.write(prefix, ch.voidPromise()); // its failure fails the payload's write too
            ch.write(payload, promise);
        }
    }
}
