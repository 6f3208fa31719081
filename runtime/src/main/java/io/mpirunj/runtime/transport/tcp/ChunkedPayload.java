package io.mpirunj.runtime.transport.tcp;

import io.mpirunj.Buffer;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;

/**
 * A large payload in heap memory (a rendezvous DATA frame wrapping the sender's array) on its way to
 * the socket, which takes native memory only. Netty would copy all of it to native memory at once,
 * so a 1 GiB send would need 1 GiB of direct memory, held until the peer has read most of it. Here
 * {@link OutboundLink} copies it {@link #WRITE_CHUNK_BYTES} at a time and flushes each chunk, and only
 * while the channel is writable: the native memory a send holds is bounded by the write buffer's
 * high-water mark plus one chunk. Each chunk also leaves while the next is copied, and is still in
 * this core's cache when the kernel copies it into the socket.
 *
 * A payload whose bytes need converting to the wire layout (a typed array,
 * {@link io.mpirunj.runtime.transport.Transport#sendConverting}) goes the same way, converted
 * straight into each chunk, so it never sits whole in native memory either.
 *
 * <p>The frame's prefix goes first ({@link FrameEncoder} writes it from the frame alone); the link
 * writes nothing else on the channel until the last chunk. Ownership: holds the payload until the
 * last chunk is copied or {@link #fail}; the frame's listener runs exactly once, from the last chunk's
 * write or from {@link #fail}. Confined to the link's event loop.
 */
final class ChunkedPayload {
    /** Chunk size (bytes); {@link TcpConfig#WRITE_CHUNK_BYTES_PROP}. */
    static final int WRITE_CHUNK_BYTES = TcpConfig.writeChunkBytes();

    private final OutboundFrame frame;
    /** The bytes to copy, or null when {@link #unconverted} holds them. */
    private final ByteBuf payload;
    private final Buffer unconverted;
    private final int end;
    private int at;

    /** True if {@code payload} must go in chunks: heap memory, more than one chunk. */
    static boolean wanted(ByteBuf payload) {
        return payload != null && !payload.isDirect() && payload.readableBytes() > WRITE_CHUNK_BYTES;
    }

    /** Takes {@code frame}'s payload; the caller then writes the frame (its prefix alone). */
    ChunkedPayload(OutboundFrame frame) {
        this.frame = frame;
        this.payload = frame.takePayload();
        this.unconverted = frame.unconverted();
        this.at = payload != null ? payload.readerIndex() : 0;
        this.end = payload != null ? payload.writerIndex() : unconverted.byteLength();
    }

    /**
     * Copies the next chunk to native memory and writes and flushes it; returns true if it was the
     * last (the payload is then released). Throws if native memory runs out: the caller must then
     * {@link #fail} this and close the channel (the frame is cut short on the wire).
     */
    boolean writeNext(Channel channel) {
        int n = Math.min(WRITE_CHUNK_BYTES, end - at);
        ByteBuf chunk = channel.alloc().directBuffer(n, n);
        try {
            if (payload != null) {
                chunk.writeBytes(payload, at, n);
            } else {
                unconverted.copyOut(at, chunk.nioBuffer(0, n));
                chunk.writerIndex(n);
            }
        } catch (RuntimeException | Error e) {
            chunk.release();
            throw e;
        }
        at += n;
        if (at < end) {
            channel.writeAndFlush(chunk, channel.voidPromise()); // a failure closes the link, which fails this
            return false;
        }
        release();
        channel.writeAndFlush(chunk, frame.wantsCompletion() ? channel.newPromise().addListener(frame)
                : channel.voidPromise());
        return true;
    }

    /** The frame will not be written whole: releases the payload, tells the frame's listener. */
    void fail(Throwable cause) {
        release();
        frame.fail(cause);
    }

    private void release() {
        if (payload != null && payload.refCnt() > 0) {
            payload.release();
        }
    }
}
