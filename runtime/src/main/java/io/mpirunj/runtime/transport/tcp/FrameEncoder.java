package io.mpirunj.runtime.transport.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandler;
import io.netty.channel.ChannelPromise;
import java.net.SocketAddress;

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
 * once written or failed); releases the {@link OutboundFrame}. Stateless, hence sharable: Netty checks
 * that only of its adapters, and this handler is not one, for the reason {@link PlainInboundHandler}
 * gives; so every outbound operation other than {@code write} is passed on here.
 */
final class FrameEncoder implements ChannelOutboundHandler {
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

    @Override
    public void flush(ChannelHandlerContext ctx) {
        ctx.flush();
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
        ctx.read();
    }

    @Override
    public void bind(ChannelHandlerContext ctx, SocketAddress local, ChannelPromise promise) {
        ctx.bind(local, promise);
    }

    @Override
    public void connect(ChannelHandlerContext ctx, SocketAddress remote, SocketAddress local, ChannelPromise promise) {
        ctx.connect(remote, local, promise);
    }

    @Override
    public void disconnect(ChannelHandlerContext ctx, ChannelPromise promise) {
        ctx.disconnect(promise);
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        ctx.close(promise);
    }

    @Override
    public void deregister(ChannelHandlerContext ctx, ChannelPromise promise) {
        ctx.deregister(promise);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
    }

    @Override
    @SuppressWarnings("deprecation") // ChannelHandler's, which a ChannelOutboundHandler still has to have
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.fireExceptionCaught(cause);
    }
}
