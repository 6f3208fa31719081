package io.mpirunj.runtime.transport.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;

/**
 * Writes an {@link OutboundFrame} as a small pooled prefix buffer (length, header length, header)
 * followed by the payload buffer itself, which passes through uncopied; the socket sends both in
 * one gathering write. Payloads up to {@link #COPY_THRESHOLD_BYTES} are copied into the prefix
 * buffer instead, where one buffer is cheaper than two. A frame whose payload was taken by a
 * {@link ChunkedPayload} (a large heap payload) is written as its prefix alone: {@link OutboundLink}
 * writes the payload after it, chunk by chunk. Other messages (handshake bytes, GOODBYE, chunks)
 * pass through untouched.
 *
 * <p>Ownership: takes the payload out of the frame and hands it to the channel (which releases it
 * once written or failed); releases the {@link OutboundFrame}. Stateless, hence sharable.
 */
@ChannelHandler.Sharable
final class FrameEncoder extends ChannelOutboundHandlerAdapter {
    static final FrameEncoder INSTANCE = new FrameEncoder();

    /** Payloads up to this size travel inside the prefix buffer. */
    static final int COPY_THRESHOLD_BYTES = 512;

    private FrameEncoder() {
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof OutboundFrame)) {
            ctx.write(msg, promise);
            return;
        }
        OutboundFrame f = (OutboundFrame) msg;
        int payloadBytes = f.payloadBytes();
        ByteBuf payload = f.takePayload(); // null: none, or a ChunkedPayload follows
        f.release();
        int prefixBytes = FrameHeaderCodec.prefixSize(f.headerSize());
        boolean inline = payload != null && payloadBytes <= COPY_THRESHOLD_BYTES;
        ByteBuf prefix = ctx.alloc().directBuffer(prefixBytes + (inline ? payloadBytes : 0));
        FrameHeaderCodec.writePrefix(prefix, f.frame(), f.headerSize(), payloadBytes);
        if (inline) {
            prefix.writeBytes(payload, payload.readerIndex(), payloadBytes);
            payload.release();
            ctx.write(prefix, promise);
        } else if (payload == null) {
            ctx.write(prefix, promise);
        } else {
            ctx.write(prefix, ctx.voidPromise()); // its failure fails the payload's write too
            ctx.write(payload, promise);
        }
    }
}
