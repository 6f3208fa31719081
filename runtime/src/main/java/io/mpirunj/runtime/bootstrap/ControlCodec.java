package io.mpirunj.runtime.bootstrap;

import io.mpirunj.runtime.wire.ControlMessage;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.handler.codec.MessageToByteEncoder;
import io.netty.handler.codec.MessageToMessageDecoder;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.List;

/**
 * Framing of the rendezvous (control) connection: {@code [u32 length, big-endian][ControlMessage]},
 * for the Netty server side ({@link #install}) and the blocking client side ({@link #read},
 * {@link #write}). Control messages are rare (a handful per rank per job), so plain protobuf
 * objects are fine here.
 */
final class ControlCodec {
    /** Largest control message: an address table of a very large job still fits. */
    static final int MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

    private ControlCodec() {
    }

    /** Adds the frame decoder, message decoder and encoder to {@code p}. */
    static void install(ChannelPipeline p) {
        p.addLast("frames", new LengthFieldBasedFrameDecoder(MAX_MESSAGE_BYTES, 0, 4, 0, 4));
        p.addLast("decoder", Decoder.INSTANCE);
        p.addLast("prepender", new LengthFieldPrepender(4));
        p.addLast("encoder", Encoder.INSTANCE);
    }

    /** Reads one message; blocks. */
    static ControlMessage read(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > MAX_MESSAGE_BYTES) {
            throw new IOException("control message length=" + Integer.toUnsignedString(length) + " (expected: 0.."
                    + MAX_MESSAGE_BYTES + ")");
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return ControlMessage.parseFrom(bytes);
    }

    /** Writes and flushes one message; the caller serializes writers. */
    static void write(DataOutputStream out, ControlMessage message) throws IOException {
        out.writeInt(message.getSerializedSize());
        message.writeTo(out);
        out.flush();
    }

    /** True if {@code e} is the normal end of a stream rather than a broken one. */
    static boolean isEof(IOException e) {
        return e instanceof EOFException;
    }

    @ChannelHandler.Sharable
    static final class Decoder extends MessageToMessageDecoder<ByteBuf> {
        static final Decoder INSTANCE = new Decoder();

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf msg, List<Object> out) throws IOException {
            try (ByteBufInputStream in = new ByteBufInputStream(msg)) {
                out.add(ControlMessage.parseFrom(in));
            }
        }
    }

    @ChannelHandler.Sharable
    static final class Encoder extends MessageToByteEncoder<ControlMessage> {
        static final Encoder INSTANCE = new Encoder();

        @Override
        protected void encode(ChannelHandlerContext ctx, ControlMessage msg, ByteBuf out) throws IOException {
            try (ByteBufOutputStream stream = new ByteBufOutputStream(out)) {
                msg.writeTo(stream);
            }
        }
    }
}
