package io.mpirunj.runtime.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.runtime.transport.Frame;
import io.mpirunj.runtime.transport.Transport;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link FrameEncoder} and {@link FrameDecoder} in {@link EmbeddedChannel}s: round trips of every
 * kind, every split point, DATA streamed into a typed target, and every protocol violation. Every
 * buffer read is released and every channel must finish empty (surefire runs with paranoid leak
 * detection).
 */
@ExtendWith(LeakCheck.class)
class FrameCodecTest {
    private static final int MAX_FRAME = 1 << 20;
    private static final int MAX_EAGER = 64 * 1024;
    private static final long STREAM_ID = 77;

    /** One frame and its payload bytes (null for none). */
    record Sent(Frame frame, byte[] payload) {
    }

    /** What the decoder emitted, copied out of the flyweight. */
    record Got(InboundFrame.Type type, String frame, byte[] payload) {
    }

    /** Records the decoder's events and the exceptions it raises; releases payloads. */
    static final class Recorder extends ChannelInboundHandlerAdapter {
        final List<Got> events = new ArrayList<>();
        final List<Throwable> errors = new ArrayList<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            InboundFrame e = (InboundFrame) msg;
            ByteBuf p = e.takePayload();
            byte[] bytes = null;
            if (p != null) {
                bytes = ByteBufUtil.getBytes(p);
                p.release();
            }
            events.add(new Got(e.type(), String.valueOf(e.frame()), bytes));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            errors.add(cause);
        }
    }

    static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    static List<Sent> everyKind() {
        return List.of(
                new Sent(Frame.eager(1, 5, 10), bytes(10, 1)),
                new Sent(Frame.eager(1, -5, 0), new byte[0]),
                new Sent(Frame.eager(2, 6, 3000), bytes(3000, 2)), // above the inline-copy threshold
                new Sent(Frame.rts(3, 7, 1 << 24, 11), null),
                new Sent(Frame.cts(11, 12), null),
                new Sent(Frame.data(12, 700), bytes(700, 3)));
    }

    /**
     * A prefix that cannot be allocated fails the write (its listener once, the payload released) and the pipeline
     * sees the failure, so the link closes rather than send the frames after it.
     */
    @Test
    void aFrameWhosePrefixCannotBeAllocatedFailsItsWrite() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.config().setAllocator(new io.netty.buffer.AbstractByteBufAllocator() {
            @Override
            protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
                return Unpooled.buffer(initialCapacity, maxCapacity);
            }

            @Override
            protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
                throw new OutOfMemoryError("test: no direct memory");
            }

            @Override
            public boolean isDirectBufferPooled() {
                return false;
            }
        });
        ByteBuf payload = Unpooled.copiedBuffer(bytes(3000, 4));
        List<Throwable> causes = new ArrayList<>();
        OutboundFrame f = new OutboundFrame(Frame.eager(2, 6, 3000), FrameHeaderCodec.headerSize(Frame.eager(2, 6, 3000)),
                payload, causes::add);
        FrameEncoder.write(ch, f, ch.newPromise().addListener(f));
        assertEquals(1, causes.size());
        assertEquals("test: no direct memory", causes.get(0).getMessage());
        assertEquals(0, payload.refCnt());
        assertEquals(0, f.refCnt());
        assertNull(ch.readOutbound());
        OutOfMemoryError seen = org.junit.jupiter.api.Assertions.assertThrows(OutOfMemoryError.class, ch::checkException);
        assertEquals("test: no direct memory", seen.getMessage());
        assertFalse(ch.finish());
    }

    /** Writes {@code frames} with {@link FrameEncoder} to a channel; returns the bytes on the wire. */
    static byte[] encode(List<Sent> frames) {
        EmbeddedChannel ch = new EmbeddedChannel();
        AtomicInteger written = new AtomicInteger();
        for (Sent s : frames) {
            ByteBuf payload = s.payload() == null ? null : Unpooled.copiedBuffer(s.payload());
            OutboundFrame f = new OutboundFrame(s.frame(), FrameHeaderCodec.headerSize(s.frame()), payload,
                    cause -> {
                        assertNull(cause);
                        written.incrementAndGet();
                    });
            FrameEncoder.write(ch, f, ch.newPromise().addListener(f));
            ch.flush();
        }
        assertEquals(frames.size(), written.get(), "every write listener ran once");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuf b; (b = ch.readOutbound()) != null;) {
            out.writeBytes(ByteBufUtil.getBytes(b));
            b.release();
        }
        assertFalse(ch.finish());
        return out.toByteArray();
    }

    static ByteBuf goodbye() {
        ByteBuf b = Unpooled.buffer();
        FrameHeaderCodec.writeGoodbye(b);
        return b;
    }

    static EmbeddedChannel decoder(Recorder rec, FrameDecoder.DataTargets targets) {
        return new EmbeddedChannel(new FrameDecoder("test", MAX_FRAME, MAX_EAGER, targets), rec);
    }

    static void assertDecoded(List<Sent> sent, List<Got> got) {
        assertEquals(sent.size(), got.size(), "events: " + got);
        for (int i = 0; i < sent.size(); i++) {
            Sent s = sent.get(i);
            Got g = got.get(i);
            assertEquals(InboundFrame.Type.FRAME, g.type());
            assertEquals(s.frame().toString(), g.frame());
            if (s.frame().hasPayload()) {
                assertArrayEquals(s.payload(), g.payload(), s.frame().toString());
            } else {
                assertNull(g.payload());
            }
        }
    }

    @Test
    void roundTripsEveryKind() {
        List<Sent> sent = everyKind();
        Recorder rec = new Recorder();
        EmbeddedChannel ch = decoder(rec, FrameDecoder.DataTargets.NONE);
        ch.writeInbound(Unpooled.wrappedBuffer(encode(sent)));
        ch.writeInbound(goodbye());
        assertDecoded(sent, rec.events.subList(0, sent.size()));
        assertEquals(InboundFrame.Type.GOODBYE, rec.events.get(sent.size()).type());
        assertTrue(rec.errors.isEmpty());
        assertFalse(ch.finish());
    }

    @Test
    void decodesFramesSplitAtEveryByteOffset() {
        List<Sent> sent = everyKind();
        byte[] wire = encode(sent);
        for (int cut = 0; cut <= wire.length; cut++) {
            Recorder rec = new Recorder();
            EmbeddedChannel ch = decoder(rec, FrameDecoder.DataTargets.NONE);
            ch.writeInbound(Unpooled.wrappedBuffer(wire, 0, cut));
            ch.writeInbound(Unpooled.wrappedBuffer(wire, cut, wire.length - cut));
            assertDecoded(sent, rec.events);
            assertTrue(rec.errors.isEmpty());
            assertFalse(ch.finish());
        }
    }

    @Test
    void decodesFramesFedOneByteAtATime() {
        List<Sent> sent = everyKind();
        byte[] wire = encode(sent);
        Recorder rec = new Recorder();
        EmbeddedChannel ch = decoder(rec, FrameDecoder.DataTargets.NONE);
        for (int i = 0; i < wire.length; i++) {
            ch.writeInbound(Unpooled.wrappedBuffer(wire, i, 1));
        }
        assertDecoded(sent, rec.events);
        assertFalse(ch.finish());
    }

    @Test
    void streamsDataIntoAnIntTargetInUnalignedChunks() {
        int[] expected = new int[1001];
        for (int i = 0; i < expected.length; i++) {
            expected[i] = i * 0x01010101 ^ 0x5A5A5A5A;
        }
        ByteBuffer le = ByteBuffer.allocate(expected.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        le.asIntBuffer().put(expected);
        Frame data = Frame.data(STREAM_ID, le.capacity());
        Frame after = Frame.cts(1, 2);
        byte[] wire = encode(List.of(new Sent(data, le.array()), new Sent(after, null)));

        for (int chunk : new int[] {1, 3, 7, 4096}) {
            int[] target = new int[expected.length];
            List<Frame> asked = new ArrayList<>();
            Recorder rec = new Recorder();
            EmbeddedChannel ch = decoder(rec, f -> {
                asked.add(f);
                return f.recvId() == STREAM_ID ? Buffer.of(target) : null;
            });
            for (int i = 0; i < wire.length; i += chunk) {
                ch.writeInbound(Unpooled.wrappedBuffer(wire, i, Math.min(chunk, wire.length - i)));
            }
            assertEquals(1, asked.size(), "target asked once per DATA frame");
            assertArrayEquals(expected, target, "chunk=" + chunk);
            assertEquals(2, rec.events.size());
            assertEquals(new Got(InboundFrame.Type.STREAMED, data.toString(), null), rec.events.get(0));
            assertEquals(after.toString(), rec.events.get(1).frame());
            assertFalse(ch.finish());
        }
    }

    @Test
    void streamsOnlyWhatFitsIntoAShortTarget() {
        byte[] payload = bytes(1000, 9);
        byte[] wire = encode(List.of(new Sent(Frame.data(STREAM_ID, 1000), payload), new Sent(Frame.cts(3, 4), null)));
        byte[] target = new byte[300];
        Recorder rec = new Recorder();
        EmbeddedChannel ch = decoder(rec, f -> Buffer.of(target));
        for (int i = 0; i < wire.length; i += 64) {
            ch.writeInbound(Unpooled.wrappedBuffer(wire, i, Math.min(64, wire.length - i)));
        }
        assertArrayEquals(java.util.Arrays.copyOf(payload, 300), target);
        assertEquals(InboundFrame.Type.STREAMED, rec.events.get(0).type());
        assertEquals(Frame.cts(3, 4).toString(), rec.events.get(1).frame());
        assertFalse(ch.finish());
    }

    @Test
    void streamsIntoADirectByteBufferTarget() {
        byte[] payload = bytes(5000, 4);
        byte[] wire = encode(List.of(new Sent(Frame.data(STREAM_ID, payload.length), payload)));
        ByteBuffer direct = ByteBuffer.allocateDirect(payload.length);
        Recorder rec = new Recorder();
        EmbeddedChannel ch = decoder(rec, f -> Buffer.of(direct));
        ch.writeInbound(Unpooled.wrappedBuffer(wire, 0, 2500));
        ch.writeInbound(Unpooled.wrappedBuffer(wire, 2500, wire.length - 2500));
        byte[] got = new byte[payload.length];
        direct.get(0, got);
        assertArrayEquals(payload, got);
        assertFalse(ch.finish());
    }

    @Test
    void payloadsArriveInPooledBuffersOfExactSize() {
        byte[] payload = bytes(2000, 5);
        byte[] wire = encode(List.of(new Sent(Frame.eager(0, 0, payload.length), payload)));
        List<ByteBuf> seen = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder("test", MAX_FRAME, MAX_EAGER,
                FrameDecoder.DataTargets.NONE), new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        seen.add(((InboundFrame) msg).takePayload());
                    }
                });
        ch.config().setAllocator(io.netty.buffer.PooledByteBufAllocator.DEFAULT);
        ch.writeInbound(Unpooled.wrappedBuffer(wire, 0, 100));
        ch.writeInbound(Unpooled.wrappedBuffer(wire, 100, wire.length - 100));
        ByteBuf p = seen.get(0);
        assertEquals(payload.length, p.capacity());
        assertEquals(payload.length, p.maxCapacity());
        assertArrayEquals(payload, ByteBufUtil.getBytes(p));
        assertTrue(p.release());
        assertFalse(ch.finish());
    }

    @Test
    void payloadNobodyTakesIsReleased() {
        byte[] wire = encode(List.of(new Sent(Frame.eager(0, 0, 900), bytes(900, 6))));
        List<ByteBuf> seen = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder("test", MAX_FRAME, MAX_EAGER,
                FrameDecoder.DataTargets.NONE), new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        seen.add(((InboundFrame) msg).payload()); // looks, does not take
                    }
                });
        ch.writeInbound(Unpooled.wrappedBuffer(wire));
        assertEquals(0, seen.get(0).refCnt());
        assertFalse(ch.finish());
    }

    // ---- protocol violations: each closes the channel and raises TcpProtocolException -----------

    private static void assertRejected(ByteBuf wire, String reasonPart) {
        Recorder rec = new Recorder();
        EmbeddedChannel ch = decoder(rec, FrameDecoder.DataTargets.NONE);
        ch.writeInbound(wire);
        assertFalse(ch.isOpen(), "closed after " + reasonPart);
        assertEquals(1, rec.errors.size());
        TcpProtocolException e = assertInstanceOf(TcpProtocolException.class, rec.errors.get(0));
        assertTrue(e.getMessage().contains(reasonPart), e.getMessage());
        assertTrue(rec.events.isEmpty());
        assertFalse(ch.finish());
    }

    private static ByteBuf frameBytes(int length, byte[] header, int payloadBytes) {
        ByteBuf b = ByteBufAllocator.DEFAULT.buffer();
        b.writeInt(length);
        FrameHeaderCodec.writeVarint(b, header.length);
        b.writeBytes(header);
        b.writeZero(payloadBytes);
        return b;
    }

    @Test
    void rejectsOversizedFrameLength() {
        ByteBuf b = Unpooled.buffer().writeInt(MAX_FRAME + 1).writeZero(100);
        assertRejected(b, "frame length=" + (MAX_FRAME + 1));
    }

    @Test
    void rejectsNegativeAndZeroFrameLength() {
        assertRejected(Unpooled.buffer().writeInt(-1), "frame length=4294967295");
        assertRejected(Unpooled.buffer().writeInt(0), "frame length=0");
    }

    @Test
    void rejectsOversizedHeader() {
        ByteBuf b = Unpooled.buffer().writeInt(1000);
        FrameHeaderCodec.writeVarint(b, WireProtocol.MAX_HEADER_BYTES + 1);
        assertRejected(b, "frame header length=" + (WireProtocol.MAX_HEADER_BYTES + 1));
    }

    @Test
    void rejectsHeaderLongerThanFrame() {
        ByteBuf b = Unpooled.buffer().writeInt(5);
        FrameHeaderCodec.writeVarint(b, 10);
        assertRejected(b, "frame header length=10");
    }

    @Test
    void rejectsUnknownKind() {
        byte[] header = {0x08, 0x09};
        assertRejected(frameBytes(1 + header.length, header, 0), "frame kind=9");
    }

    @Test
    void rejectsPayloadDisagreeingWithHeader() {
        byte[] header = FrameHeaderCodecTest.header(Frame.eager(0, 0, 10));
        assertRejected(frameBytes(1 + header.length + 11, header, 11), "says length=10");
    }

    @Test
    void rejectsPayloadOnRts() {
        byte[] header = FrameHeaderCodecTest.header(Frame.rts(0, 0, 10, 1));
        assertRejected(frameBytes(1 + header.length + 3, header, 3), "RTS frame carries 3 payload bytes");
    }

    @Test
    void rejectsEagerAboveLimit() {
        byte[] header = FrameHeaderCodecTest.header(Frame.eager(0, 0, MAX_EAGER + 1));
        assertRejected(frameBytes(1 + header.length + MAX_EAGER + 1, header, 0), "EAGER payload length="
                + (MAX_EAGER + 1));
    }

    @Test
    void rejectsMalformedHeader() {
        byte[] header = {0x08, (byte) 0x81};
        assertRejected(frameBytes(1 + header.length, header, 0), "truncated varint");
    }

    @Test
    void releasesAHalfAssembledPayloadWhenTheConnectionDrops() {
        byte[] wire = encode(List.of(new Sent(Frame.eager(0, 0, 5000), bytes(5000, 8))));
        Recorder rec = new Recorder();
        EmbeddedChannel ch = decoder(rec, FrameDecoder.DataTargets.NONE);
        ch.writeInbound(Unpooled.wrappedBuffer(wire, 0, 3000));
        assertFalse(ch.finish()); // inactive: the decoder frees its partial payload (paranoid detector)
        assertTrue(rec.events.isEmpty());
    }

    @Test
    void ignoresBytesAfterGoodbye() {
        Recorder rec = new Recorder();
        EmbeddedChannel ch = decoder(rec, FrameDecoder.DataTargets.NONE);
        ByteBuf b = goodbye();
        b.writeBytes(encode(List.of(new Sent(Frame.cts(1, 1), null))));
        ch.writeInbound(b);
        assertEquals(1, rec.events.size());
        assertEquals(InboundFrame.Type.GOODBYE, rec.events.get(0).type());
        assertFalse(ch.finish());
    }

    @Test
    void failedFrameReleasesPayloadAndRunsListenerOnce() {
        ByteBuf payload = Unpooled.copiedBuffer(bytes(10, 1));
        List<Throwable> causes = new ArrayList<>();
        OutboundFrame f = new OutboundFrame(Frame.eager(0, 0, 10), 4, payload, causes::add);
        Transport.WriteListener unused = Transport.WriteListener.NONE;
        f.fail(new java.io.IOException("x"));
        assertEquals(0, payload.refCnt());
        assertEquals(1, causes.size());
        assertTrue(f.release()); // the frame object itself, as FrameEncoder does when it writes one
    }
}
