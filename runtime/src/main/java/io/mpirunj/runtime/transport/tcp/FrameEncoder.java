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
 * buffer instead, where one buffer is cheaper than two. Other messages (handshake bytes, GOODBYE)
 * pass through untouched.
 *
 * <p>A large payload in heap memory (a rendezvous DATA frame wrapping the sender's array) must be
 * copied to native memory before the socket can take it. Netty would copy all of it at once and only
 * then write; here it goes in chunks of {@link #WRITE_CHUNK_BYTES}, each copied and flushed before the
 * next, so the peer reads the first chunk while this thread copies the next, and each chunk is still
 * in this core's cache when the kernel copies it into the socket.
 *
 * <p>Ownership: takes the payload out of the frame and hands it to the channel (which releases it
 * once written or failed); releases the {@link OutboundFrame}. Stateless, hence sharable.
 */
@ChannelHandler.Sharable
final class FrameEncoder extends ChannelOutboundHandlerAdapter {
    static final FrameEncoder INSTANCE = new FrameEncoder();

    /** Payloads up to this size travel inside the prefix buffer. */
    static final int COPY_THRESHOLD_BYTES = 512;

    /** Chunk size of heap payloads (bytes); {@code -Dmpirunj.tcp.writeChunkBytes}. */
    static final String WRITE_CHUNK_PROP = "mpirunj.tcp.writeChunkBytes";
    static final int WRITE_CHUNK_BYTES = Math.max(4096, Integer.getInteger(WRITE_CHUNK_PROP, 128 * 1024));

    private FrameEncoder() {
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof OutboundFrame)) {
            ctx.write(msg, promise);
            return;
        }
        OutboundFrame f = (OutboundFrame) msg;
        ByteBuf payload = f.takePayload();
        f.release();
        int payloadBytes = payload == null ? 0 : payload.readableBytes();
        int prefixBytes = FrameHeaderCodec.prefixSize(f.headerSize());
        boolean inline = payloadBytes <= COPY_THRESHOLD_BYTES;
        ByteBuf prefix = ctx.alloc().directBuffer(prefixBytes + (inline ? payloadBytes : 0));
        FrameHeaderCodec.writePrefix(prefix, f.frame(), f.headerSize(), payloadBytes);
        if (inline) {
            if (payload != null) {
                prefix.writeBytes(payload, payload.readerIndex(), payloadBytes);
                payload.release();
            }
            ctx.write(prefix, promise);
        } else if (payload.isDirect() || payloadBytes <= WRITE_CHUNK_BYTES) {
            ctx.write(prefix, ctx.voidPromise()); // its failure fails the payload's write too
            ctx.write(payload, promise);
        } else {
            ctx.write(prefix, ctx.voidPromise());
            writeInChunks(ctx, payload, promise);
        }
    }

    /** Copies {@code payload} to native memory a chunk at a time, flushing each; releases it. */
    private static void writeInChunks(ChannelHandlerContext ctx, ByteBuf payload, ChannelPromise promise) {
        try {
            int end = payload.writerIndex();
            for (int at = payload.readerIndex(); at < end;) {
                int n = Math.min(WRITE_CHUNK_BYTES, end - at);
                ByteBuf chunk = ctx.alloc().directBuffer(n, n);
                chunk.writeBytes(payload, at, n);
                at += n;
                if (at < end) {
                    ctx.write(chunk, ctx.voidPromise()); // a failure closes the channel: the last write fails too
                    ctx.flush();
                } else {
                    ctx.write(chunk, promise);
                }
            }
        } catch (RuntimeException | OutOfMemoryError e) {
            // Out of native memory between chunks: the frame is cut short on the wire, so the connection
            // cannot carry another one.
            promise.tryFailure(e);
            ctx.close();
        } finally {
            payload.release();
        }
    }
}
