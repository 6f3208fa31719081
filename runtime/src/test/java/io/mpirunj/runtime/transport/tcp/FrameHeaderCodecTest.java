package io.mpirunj.runtime.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import io.mpirunj.runtime.transport.Frame;
import io.mpirunj.runtime.transport.FrameKind;
import io.mpirunj.runtime.wire.FrameHeader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The hand-written header codec against the generated protobuf class, both directions. */
class FrameHeaderCodecTest {
    static final List<Frame> FRAMES = List.of(
            Frame.eager(0, 0, 0),
            Frame.eager(1, 7, 100),
            Frame.eager(Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE),
            Frame.eager(-3, -1, 1),
            Frame.rts(2, 42, 16 << 20, 1L),
            Frame.rts(5, -1000, 0, Long.MAX_VALUE),
            Frame.cts(123456789L, -1L),
            Frame.cts(0, 0),
            Frame.data(Long.MIN_VALUE, 16 << 20),
            Frame.data(9, 0));

    @Test
    void writtenHeaderIsValidProtobuf() throws Exception {
        for (Frame f : FRAMES) {
            byte[] header = header(f);
            assertEquals(FrameHeaderCodec.headerSize(f), header.length, f.toString());
            FrameHeader parsed = FrameHeader.parseFrom(header);
            assertEquals(f.kind().code(), parsed.getKindValue(), f.toString());
            assertEquals(f.context(), parsed.getContext());
            assertEquals(f.tag(), parsed.getTag());
            assertEquals(f.length(), parsed.getLength());
            assertEquals(f.sendId(), parsed.getSendId());
            assertEquals(f.recvId(), parsed.getRecvId());
            assertEquals(parsed.getSerializedSize(), header.length, "same bytes as protobuf-java would write");
            assertArrayEquals(parsed.toByteArray(), header, "same bytes as protobuf-java would write");
        }
    }

    @Test
    void readsWhatProtobufWrites() throws Exception {
        for (Frame f : FRAMES) {
            byte[] bytes = FrameHeader.newBuilder()
                    .setKindValue(f.kind().code())
                    .setContext(f.context())
                    .setTag(f.tag())
                    .setLength(f.length())
                    .setSendId(f.sendId())
                    .setRecvId(f.recvId())
                    .build().toByteArray();
            assertEquals(f.toString(), decode(bytes).toFrame().toString());
        }
    }

    @Test
    void skipsUnknownFieldsOfEveryWireType() throws Exception {
        Frame f = Frame.rts(3, -9, 77, 5);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        FrameHeader.newBuilder()
                .setKindValue(f.kind().code()).setContext(3).setTag(-9).setLength(77).setSendId(5)
                .build().writeTo(bytes);
        CodedOutputStream out = CodedOutputStream.newInstance(bytes); // fields a later version might add
        out.writeUInt64(20, 1L << 40);
        out.writeFixed32(21, 7);
        out.writeFixed64(22, 8);
        out.writeBytes(23, ByteString.copyFromUtf8("future"));
        out.flush();
        assertEquals(f.toString(), decode(bytes.toByteArray()).toFrame().toString());
        assertEquals(77, FrameHeader.parseFrom(bytes.toByteArray()).getLength(), "protobuf skips them too");
    }

    @Test
    void knownFieldWithAnotherWireTypeIsSkippedLikeProtobufDoes() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        out.writeUInt32(1, FrameKind.CTS.code());
        out.writeFixed64(5, 99); // send_id as fixed64: not ours, skipped
        out.writeUInt64(6, 4);
        out.flush();
        assertEquals(Frame.cts(0, 4).toString(), decode(bytes.toByteArray()).toFrame().toString());
        assertEquals(0, FrameHeader.parseFrom(bytes.toByteArray()).getSendId());
    }

    @Test
    void malformedHeadersAreRejected() {
        assertThrows(TcpProtocolException.class, () -> decode(new byte[] {0x08})); // truncated varint
        assertThrows(TcpProtocolException.class, () -> decode(new byte[] {0x08, (byte) 0x80})); // truncated
        assertThrows(TcpProtocolException.class, () -> decode(new byte[] {0x0B, 0x01})); // wire type 3 (group)
        assertThrows(TcpProtocolException.class, () -> decode(new byte[] {0x00, 0x01})); // field number 0
        assertThrows(TcpProtocolException.class, () -> decode(new byte[] {0x12, 0x05, 0x01})); // runs past end
        byte[] tooLong = new byte[12];
        tooLong[0] = 0x08;
        java.util.Arrays.fill(tooLong, 1, 12, (byte) 0x80);
        assertThrows(TcpProtocolException.class, () -> decode(tooLong)); // varint > 10 bytes
    }

    @Test
    void varintSizes() {
        assertEquals(1, FrameHeaderCodec.varintSize(0));
        assertEquals(1, FrameHeaderCodec.varintSize(127));
        assertEquals(2, FrameHeaderCodec.varintSize(128));
        assertEquals(5, FrameHeaderCodec.varintSize(0xFFFFFFFFL));
        assertEquals(10, FrameHeaderCodec.varintSize(-1L));
        for (long v : new long[] {0, 1, 127, 128, 16383, 16384, 1L << 35, -1L}) {
            assertEquals(CodedOutputStream.computeUInt64SizeNoTag(v), FrameHeaderCodec.varintSize(v), "v=" + v);
        }
    }

    @Test
    void goodbyeIsAValidFrame() throws Exception {
        ByteBuf buf = Unpooled.buffer();
        FrameHeaderCodec.writeGoodbye(buf);
        assertEquals(FrameHeaderCodec.GOODBYE_FRAME_BYTES, buf.readableBytes());
        assertEquals(buf.readableBytes() - 4, buf.readInt());
        int headerLength = buf.readByte();
        FrameHeader parsed = FrameHeader.parseFrom(ByteBufUtil.getBytes(buf, buf.readerIndex(), headerLength));
        assertEquals(io.mpirunj.runtime.wire.FrameKind.FRAME_KIND_GOODBYE, parsed.getKind());
        buf.release();
    }

    /** The header bytes of {@code f}, cut out of a whole written prefix. */
    static byte[] header(Frame f) {
        int headerSize = FrameHeaderCodec.headerSize(f);
        ByteBuf buf = Unpooled.buffer();
        try {
            FrameHeaderCodec.writePrefix(buf, f, headerSize, 0);
            int frameLength = buf.readInt();
            assertEquals(FrameHeaderCodec.prefixSize(headerSize) - 4, frameLength);
            int headerLength = buf.readByte(); // < 128 for our headers
            assertEquals(headerSize, headerLength);
            return ByteBufUtil.getBytes(buf, buf.readerIndex(), headerLength);
        } finally {
            buf.release();
        }
    }

    static FrameHeaderCodec.Fields decode(byte[] header) throws TcpProtocolException {
        FrameHeaderCodec.Fields fields = new FrameHeaderCodec.Fields();
        ByteBuf buf = Unpooled.wrappedBuffer(header);
        FrameHeaderCodec.read(buf, header.length, fields);
        assertEquals(header.length, buf.readerIndex());
        return fields;
    }
}
