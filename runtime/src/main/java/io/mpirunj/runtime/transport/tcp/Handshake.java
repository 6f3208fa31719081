package io.mpirunj.runtime.transport.tcp;

import com.google.protobuf.MessageLite;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Framing of the handshake messages: {@code [u32 length][protobuf message]}. */
final class Handshake {
    private Handshake() {
    }

    /** {@code message} with its length prefix, in a new buffer the caller owns. */
    static ByteBuf encode(ByteBufAllocator alloc, MessageLite message) {
        int size = message.getSerializedSize();
        ByteBuf out = alloc.buffer(WireProtocol.LENGTH_FIELD_BYTES + size);
        out.writeInt(size);
        try (ByteBufOutputStream stream = new ByteBufOutputStream(out)) {
            message.writeTo(stream);
        } catch (IOException e) {
            out.release();
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /**
     * The next whole message in {@code in} as a slice of it (consumed), or null if it has not fully
     * arrived (nothing consumed).
     *
     * @throws TcpProtocolException if the length prefix is out of range
     */
    static ByteBuf next(ByteBuf in) throws TcpProtocolException {
        if (in.readableBytes() < WireProtocol.LENGTH_FIELD_BYTES) {
            return null;
        }
        int length = in.getInt(in.readerIndex());
        if (length < 1 || length > WireProtocol.MAX_HANDSHAKE_BYTES) {
            throw new TcpProtocolException("handshake length=" + Integer.toUnsignedString(length)
                    + " (expected: 1.." + WireProtocol.MAX_HANDSHAKE_BYTES + ")");
        }
        if (in.readableBytes() < WireProtocol.LENGTH_FIELD_BYTES + length) {
            return null;
        }
        in.skipBytes(WireProtocol.LENGTH_FIELD_BYTES);
        return in.readSlice(length);
    }
}
