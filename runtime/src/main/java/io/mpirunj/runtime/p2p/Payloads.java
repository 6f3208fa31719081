package io.mpirunj.runtime.p2p;

import io.mpirunj.Buffer;
import io.mpirunj.ElementType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Moving bytes between user {@link Buffer}s and Netty ByteBufs. */
public final class Payloads {
    private Payloads() {
    }

    /** A new buffer from {@code alloc} holding a copy of {@code src} (for eager sends). */
    public static ByteBuf copyOf(Buffer src, ByteBuf empty) {
        int n = src.byteLength();
        if (n > 0 && src.array() instanceof byte[]) {
            empty.writeBytes((byte[]) src.array(), src.arrayOffset(), n); // no NIO view to allocate
        } else if (n > 0) {
            src.copyOut(0, empty.nioBuffer(empty.writerIndex(), n));
            empty.writerIndex(empty.writerIndex() + n);
        }
        return empty;
    }

    /**
     * A ByteBuf over {@code src}'s memory, uncopied, when its layout is already the wire layout (byte
     * arrays, byte or little-endian ByteBuffers); null otherwise (typed arrays, big-endian typed
     * ByteBuffers: their bytes need converting, which {@link io.mpirunj.runtime.transport.Transport#sendConverting}
     * does). The caller must not touch {@code src} until the buffer has been written.
     */
    public static ByteBuf wrapped(Buffer src) {
        ByteBuffer nio = wireView(src);
        if (nio != null) {
            return Unpooled.wrappedBuffer(nio);
        }
        if (src.array() instanceof byte[]) {
            return Unpooled.wrappedBuffer((byte[]) src.array(), src.arrayOffset(), src.count());
        }
        return null;
    }

    /**
     * A view of {@code b}'s bytes when it is a ByteBuffer whose layout is the wire layout (byte, or
     * little-endian), so its bytes can go to or come from a socket as they are; null otherwise.
     */
    public static ByteBuffer wireView(Buffer b) {
        ByteBuffer nio = b.byteBuffer();
        return nio != null && (b.type() == ElementType.BYTE || nio.order() == ByteOrder.LITTLE_ENDIAN) ? nio : null;
    }

    /**
     * Copies the readable bytes of {@code payload} into the start of {@code dst}, as many as fit;
     * returns the number copied. Does not release or move {@code payload}.
     */
    public static int copyInto(ByteBuf payload, Buffer dst) {
        int n = Math.min(payload.readableBytes(), dst.byteLength());
        copyInto(dst, 0, payload, payload.readerIndex(), n);
        return n;
    }

    /**
     * Copies {@code len} bytes of {@code src} starting at {@code srcIndex} into {@code dst} at byte
     * offset {@code dstOffset}. Does not move {@code src}'s indices or release it. One NIO view when
     * {@code src} has one (no array allocated), each component otherwise, a heap copy when it has none.
     */
    public static void copyInto(Buffer dst, int dstOffset, ByteBuf src, int srcIndex, int len) {
        if (len == 0) {
            return;
        }
        if (dst.array() instanceof byte[]) {
            src.getBytes(srcIndex, (byte[]) dst.array(), dst.arrayOffset() + dstOffset, len); // no NIO view
            return;
        }
        int count = src.nioBufferCount();
        if (count == 1) {
            dst.copyIn(dstOffset, src.nioBuffer(srcIndex, len));
        } else if (count > 1) {
            int off = dstOffset;
            for (ByteBuffer part : src.nioBuffers(srcIndex, len)) {
                int n = part.remaining();
                dst.copyIn(off, part);
                off += n;
            }
        } else {
            dst.copyIn(dstOffset, ByteBuffer.wrap(ByteBufUtil.getBytes(src, srcIndex, len)));
        }
    }
}
