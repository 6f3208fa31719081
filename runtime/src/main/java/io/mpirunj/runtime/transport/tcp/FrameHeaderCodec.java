package io.mpirunj.runtime.transport.tcp;

import io.mpirunj.runtime.transport.Frame;
import io.mpirunj.runtime.transport.FrameKind;
import io.netty.buffer.ByteBuf;

/**
 * Writes and reads the {@code FrameHeader} protobuf message (wire.proto) straight to and from a
 * {@link ByteBuf}, with no protobuf objects, streams or arrays per frame. The bytes are ordinary
 * protobuf: fields equal to zero are omitted, unknown fields are skipped, a known field number with
 * an unexpected wire type is skipped like an unknown field (as protobuf-java does). The generated
 * {@code io.mpirunj.runtime.wire.FrameHeader} class parses what this class writes and vice versa
 * (see FrameHeaderCodecTest).
 *
 * <p>Stateless; the {@link Fields} a reader decodes into is owned by the calling decoder.
 */
public final class FrameHeaderCodec {
    private static final int WIRE_VARINT = 0;
    private static final int WIRE_FIXED64 = 1;
    private static final int WIRE_LENGTH_DELIMITED = 2;
    private static final int WIRE_FIXED32 = 5;

    private static final int FIELD_KIND = 1;
    private static final int FIELD_CONTEXT = 2;
    private static final int FIELD_TAG = 3;
    private static final int FIELD_LENGTH = 4;
    private static final int FIELD_SEND_ID = 5;
    private static final int FIELD_RECV_ID = 6;

    /** Size of the whole GOODBYE frame on the wire: length field, varint 2, then {@code kind=15}. */
    public static final int GOODBYE_FRAME_BYTES = WireProtocol.LENGTH_FIELD_BYTES + 1 + 2;

    private FrameHeaderCodec() {
    }

    /** Encoded size of {@code frame}'s header, in bytes (at most 42). */
    public static int headerSize(Frame frame) {
        int size = 0;
        size += fieldSize(frame.kind().code());
        size += fieldSize(zigZag(frame.context()));
        size += fieldSize(zigZag(frame.tag()));
        size += fieldSize(frame.length());
        size += fieldSize(frame.sendId());
        size += fieldSize(frame.recvId());
        return size;
    }

    /** Bytes in front of the payload of a frame whose header is {@code headerSize} bytes. */
    public static int prefixSize(int headerSize) {
        return WireProtocol.LENGTH_FIELD_BYTES + varintSize(headerSize) + headerSize;
    }

    /**
     * Writes the length field, header length and header of {@code frame}, to be followed by
     * {@code payloadBytes} payload bytes. {@code headerSize} must be {@link #headerSize(Frame)}.
     * The caller checks beforehand that the frame length fits in an int.
     */
    public static void writePrefix(ByteBuf out, Frame frame, int headerSize, int payloadBytes) {
        out.writeInt(varintSize(headerSize) + headerSize + payloadBytes);
        writeVarint(out, headerSize);
        writeField(out, FIELD_KIND, frame.kind().code());
        writeField(out, FIELD_CONTEXT, zigZag(frame.context()));
        writeField(out, FIELD_TAG, zigZag(frame.tag()));
        writeField(out, FIELD_LENGTH, frame.length());
        writeField(out, FIELD_SEND_ID, frame.sendId());
        writeField(out, FIELD_RECV_ID, frame.recvId());
    }

    /** Writes a whole GOODBYE frame ({@link #GOODBYE_FRAME_BYTES} bytes). */
    public static void writeGoodbye(ByteBuf out) {
        out.writeInt(1 + 2);
        writeVarint(out, 2);
        writeField(out, FIELD_KIND, WireProtocol.GOODBYE_CODE);
    }

    /**
     * Decodes the {@code headerLength} bytes at {@code in}'s reader index into {@code out} and
     * advances the reader index past them.
     *
     * @throws TcpProtocolException if the bytes are not a well-formed protobuf message
     */
    public static void read(ByteBuf in, int headerLength, Fields out) throws TcpProtocolException {
        out.clear();
        int end = in.readerIndex() + headerLength;
        while (in.readerIndex() < end) {
            long key = readVarint(in, end);
            int field = (int) (key >>> 3);
            int wireType = (int) key & 7;
            if (field <= 0 || key >>> 32 != 0) {
                throw new TcpProtocolException("malformed frame header: field number=" + (key >>> 3)
                        + " (expected: 1.." + ((1 << 29) - 1) + ")");
            }
            if (wireType != WIRE_VARINT) {
                skip(in, end, wireType);
                continue;
            }
            long value = readVarint(in, end);
            switch (field) {
                case FIELD_KIND: out.kindCode = (int) value; break;
                case FIELD_CONTEXT: out.context = unZigZag((int) value); break;
                case FIELD_TAG: out.tag = unZigZag((int) value); break;
                case FIELD_LENGTH: out.length = (int) value; break;
                case FIELD_SEND_ID: out.sendId = value; break;
                case FIELD_RECV_ID: out.recvId = value; break;
                default: break; // an unknown varint field: already consumed
            }
        }
        if (in.readerIndex() != end) {
            throw new TcpProtocolException("malformed frame header: a field runs past its end");
        }
    }

    /** Number of bytes of the unsigned varint encoding of {@code value}. */
    public static int varintSize(long value) {
        // 1 byte per started group of 7 significant bits; zero takes one byte.
        int bits = 64 - Long.numberOfLeadingZeros(value | 1);
        return (bits + 6) / 7;
    }

    static void writeVarint(ByteBuf out, long value) {
        while ((value & ~0x7FL) != 0) {
            out.writeByte((int) (value & 0x7F) | 0x80);
            value >>>= 7;
        }
        out.writeByte((int) value);
    }

    private static long readVarint(ByteBuf in, int end) throws TcpProtocolException {
        long result = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (in.readerIndex() >= end) {
                throw new TcpProtocolException("malformed frame header: truncated varint");
            }
            byte b = in.readByte();
            result |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return result;
            }
        }
        throw new TcpProtocolException("malformed frame header: varint longer than 10 bytes");
    }

    private static void skip(ByteBuf in, int end, int wireType) throws TcpProtocolException {
        long n;
        switch (wireType) {
            case WIRE_FIXED64: n = 8; break;
            case WIRE_FIXED32: n = 4; break;
            case WIRE_LENGTH_DELIMITED: n = readVarint(in, end); break;
            default:
                throw new TcpProtocolException("malformed frame header: wire type=" + wireType
                        + " (expected: 0, 1, 2 or 5)");
        }
        if (n < 0 || n > end - in.readerIndex()) {
            throw new TcpProtocolException("malformed frame header: a field of " + n + " bytes runs past its end");
        }
        in.skipBytes((int) n);
    }

    private static int fieldSize(long value) {
        return value == 0 ? 0 : 1 + varintSize(value);
    }

    private static int fieldSize(int value) {
        return fieldSize(value & 0xFFFFFFFFL);
    }

    private static void writeField(ByteBuf out, int field, long value) {
        if (value != 0) {
            out.writeByte(field << 3 | WIRE_VARINT);
            writeVarint(out, value);
        }
    }

    private static void writeField(ByteBuf out, int field, int value) {
        writeField(out, field, value & 0xFFFFFFFFL);
    }

    private static int zigZag(int n) {
        return n << 1 ^ n >> 31;
    }

    private static int unZigZag(int n) {
        return n >>> 1 ^ -(n & 1);
    }

    /**
     * The fields of one decoded header, reused from frame to frame by one decoder (one thread).
     */
    public static final class Fields {
        int kindCode;
        int context;
        int tag;
        int length;
        long sendId;
        long recvId;

        void clear() {
            kindCode = 0;
            context = 0;
            tag = 0;
            length = 0;
            sendId = 0;
            recvId = 0;
        }

        public int kindCode() {
            return kindCode;
        }

        public int length() {
            return length;
        }

        /** The frame these fields describe; the kind must be one of {@link FrameKind}'s codes. */
        Frame toFrame() {
            return new Frame(FrameKind.fromCode(kindCode), context, tag, length, sendId, recvId);
        }
    }
}
