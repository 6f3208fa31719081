package io.mpirunj.runtime.transport.tcp;

import io.mpirunj.Buffer;
import io.mpirunj.runtime.p2p.Payloads;
import io.mpirunj.runtime.transport.Frame;
import io.mpirunj.runtime.transport.FrameKind;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import java.nio.ByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the byte stream of a rank-to-rank connection into {@link InboundFrame} events, without ever
 * holding a large payload in a cumulation buffer. A state machine:
 *
 * <pre>
 *  LENGTH ──► HEADER_LENGTH ──► HEADER ──┬─ RTS, CTS, GOODBYE ─────────────────────────► emit
 *    ▲                                    ├─ EAGER, DATA without target ─► ASSEMBLE ───► emit FRAME
 *    │                                    └─ EAGER, DATA with target ────► STREAM ─────► emit STREAMED
 *    └────────────────────────────────────────────────────────────────────────────────────┘
 * </pre>
 *
 * <ul>
 *   <li>The length field and header are parsed in place when a read holds them whole, else gathered
 *       in a small per-connection buffer (at most {@link WireProtocol#MAX_HEADER_BYTES}).</li>
 *   <li>ASSEMBLE copies the payload, chunk by chunk as reads arrive, into a pooled buffer of exactly
 *       the payload's size, which the event then carries (ownership passes downstream).</li>
 *   <li>STREAM copies each chunk straight into the user {@link Buffer} the {@link DataTargets}
 *       returned (bytes past its end are dropped: a truncated receive), so a large message is copied
 *       once, from the socket's read buffer to its destination; into direct memory in the wire's
 *       layout the socket reads it there itself ({@link #lendReadBuffer}) and nothing is copied.</li>
 * </ul>
 *
 * <p>A protocol violation (length out of range, malformed or oversized header, unknown kind, payload
 * size disagreeing with the header, EAGER payload above the limit) is logged at WARN with the remote
 * address and the reason, passed on as a {@link TcpProtocolException} and closes the connection.
 *
 * <p>One instance per channel (it holds the parse state); runs on the channel's event loop.
 */
final class FrameDecoder extends PlainInboundHandler {
    private static final Logger LOG = LoggerFactory.getLogger(FrameDecoder.class);

    /** Finds the buffer a DATA (or large EAGER) payload streams into. Called on the event loop; never blocks. */
    @FunctionalInterface
    interface DataTargets {
        /** Accept no targets: every payload is assembled and emitted as a frame. */
        DataTargets NONE = frame -> null;

        /** The destination of {@code frame}'s payload (DATA, or EAGER of {@link #STREAM_EAGER_MIN_BYTES} or more), or null to receive it assembled. */
        Buffer dataTarget(Frame frame);
    }

    /** EAGER payloads from this size are offered to {@link DataTargets} (smaller ones: one copy is cheap). */
    static final int STREAM_EAGER_MIN_BYTES = 16 * 1024;

    private enum State { LENGTH, HEADER_LENGTH, HEADER, ASSEMBLE, STREAM, GONE, FAILED }

    private final String owner;
    private final int maxFrameBytes;
    private final int maxEagerBytes;
    private final DataTargets targets;
    /** Gathers a length field or header split across reads. Heap, never handed out. */
    private final ByteBuf gather = Unpooled.wrappedBuffer(new byte[WireProtocol.MAX_HEADER_BYTES]).clear();
    private final FrameHeaderCodec.Fields fields = new FrameHeaderCodec.Fields();
    private final InboundFrame event = new InboundFrame();

    private State state = State.LENGTH;
    private int frameLength;
    private int headerLength;
    private int headerLengthBytes;
    /** The frame whose payload is being read (ASSEMBLE, STREAM). */
    private Frame current;
    /** Payload bytes of {@link #current} still to read. */
    private int remaining;
    /** ASSEMBLE: the payload so far, owned by this decoder until emitted. */
    private ByteBuf assembly;
    /** STREAM: the destination, the next byte offset in it, and how many bytes it takes. */
    private Buffer target;
    private int targetOffset;
    private int targetLimit;
    /** STREAM: {@link #target}'s memory when sockets may read into it ({@link Payloads#wireView}, direct), else null. */
    private ByteBuffer targetMemory;
    /** The last read buffer lent over {@link #targetMemory}: its bytes are already in place. */
    private ByteBuf lent;
    /**
     * The last payload was read in place: read the next frame's head with a small buffer ({@link #lendReadBuffer}).
     * Stays armed through reads that find nothing and frames without a payload (a CREDIT), until a frame
     * with a payload begins.
     */
    private boolean probeNext;
    /** Bytes of payloads bound for direct memory that were copied there, not read in place (tests look). */
    private long copiedIntoDirect;

    /** Size of the read that takes the head of the frame after a payload read in place. */
    static final int PROBE_READ_BYTES = 64;

    /**
     * @param owner names the local end in log lines, e.g. {@code "rank 3"}
     * @param maxFrameBytes largest length field accepted
     * @param maxEagerBytes largest EAGER payload accepted
     */
    FrameDecoder(String owner, int maxFrameBytes, int maxEagerBytes, DataTargets targets) {
        this.owner = owner;
        this.maxFrameBytes = maxFrameBytes;
        this.maxEagerBytes = maxEagerBytes;
        this.targets = targets;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf)) {
            ctx.fireChannelRead(msg);
            return;
        }
        ByteBuf in = (ByteBuf) msg;
        try {
            while (in.isReadable() && ctx.channel().isOpen()) {
                switch (state) {
                    case LENGTH: readLength(in); break;
                    case HEADER_LENGTH: readHeaderLength(in); break;
                    case HEADER: readHeader(ctx, in); break;
                    case ASSEMBLE: readAssembly(ctx, in); break;
                    case STREAM: readStream(ctx, in); break;
                    default: in.skipBytes(in.readableBytes()); break; // GONE, FAILED: ignore the rest
                }
            }
        } catch (TcpProtocolException e) {
            fail(ctx, e);
        } catch (RuntimeException e) { // e.g. the target buffer or the sink threw
            fail(ctx, new TcpProtocolException("cannot take frame " + current + ": " + e));
        } finally {
            in.release();
        }
    }

    private void readLength(ByteBuf in) throws TcpProtocolException {
        ByteBuf src = gathered(in, WireProtocol.LENGTH_FIELD_BYTES);
        if (src == null) {
            return;
        }
        frameLength = src.readInt();
        gather.clear();
        if (frameLength < 1 || frameLength > maxFrameBytes) {
            throw new TcpProtocolException("frame length=" + Integer.toUnsignedString(frameLength)
                    + " (expected: 1.." + maxFrameBytes + ")");
        }
        headerLength = 0;
        headerLengthBytes = 0;
        state = State.HEADER_LENGTH;
    }

    private void readHeaderLength(ByteBuf in) throws TcpProtocolException {
        while (in.isReadable()) {
            byte b = in.readByte();
            headerLength |= (b & 0x7F) << 7 * headerLengthBytes++;
            if (b >= 0) {
                int max = Math.min(WireProtocol.MAX_HEADER_BYTES, frameLength - headerLengthBytes);
                if (headerLength < 2 || headerLength > max) { // the kind field alone takes 2 bytes
                    throw new TcpProtocolException("frame header length=" + headerLength + " (expected: 2.." + max
                            + ")");
                }
                state = State.HEADER;
                return;
            }
            if (headerLengthBytes == 2) { // 2 varint bytes already encode up to 16383 > MAX_HEADER_BYTES
                throw new TcpProtocolException("frame header length varint longer than 2 bytes (expected: <= "
                        + WireProtocol.MAX_HEADER_BYTES + ")");
            }
        }
    }

    private void readHeader(ChannelHandlerContext ctx, ByteBuf in) throws TcpProtocolException {
        ByteBuf src = gathered(in, headerLength);
        if (src == null) {
            return;
        }
        FrameHeaderCodec.read(src, headerLength, fields);
        gather.clear();
        int payloadLength = frameLength - headerLengthBytes - headerLength;
        int kind = fields.kindCode();
        if (kind == WireProtocol.GOODBYE_CODE) {
            expectNoPayload("GOODBYE", payloadLength);
            state = State.GONE;
            emit(ctx, InboundFrame.Type.GOODBYE, null, null);
            return;
        }
        if (kind < FrameKind.EAGER.code() || kind > FrameKind.CREDIT.code()) {
            throw new TcpProtocolException("frame kind=" + kind + " (expected: 1..5 or "
                    + WireProtocol.GOODBYE_CODE + ")");
        }
        if (fields.length() < 0) {
            throw new TcpProtocolException("frame header length field=" + Integer.toUnsignedString(fields.length())
                    + " (expected: <= " + Integer.MAX_VALUE + ")");
        }
        Frame frame = fields.toFrame();
        state = State.LENGTH;
        if (!frame.hasPayload()) {
            expectNoPayload(frame.kind().name(), payloadLength);
            emit(ctx, InboundFrame.Type.FRAME, frame, null);
            return;
        }
        if (payloadLength != frame.length()) {
            throw new TcpProtocolException(frame.kind() + " frame carries " + payloadLength
                    + " payload bytes but its header says length=" + frame.length());
        }
        if (frame.kind() == FrameKind.EAGER && payloadLength > maxEagerBytes) {
            throw new TcpProtocolException("EAGER payload length=" + payloadLength + " (expected: <= "
                    + maxEagerBytes + ")");
        }
        probeNext = false; // a payload begins: its head is in; the rest goes in place or is copied
        current = frame;
        remaining = payloadLength;
        boolean streamable = frame.kind() == FrameKind.DATA
                || frame.kind() == FrameKind.EAGER && payloadLength >= STREAM_EAGER_MIN_BYTES;
        Buffer t = streamable ? targets.dataTarget(frame) : null;
        if (t != null) {
            target = t;
            targetOffset = 0;
            targetLimit = Math.min(t.byteLength(), payloadLength);
            ByteBuffer memory = Payloads.wireView(t);
            targetMemory = memory != null && memory.isDirect() && !memory.isReadOnly() ? memory : null;
            state = State.STREAM;
            if (remaining == 0) {
                endStream(ctx);
            }
        } else if (payloadLength == 0) {
            current = null;
            emit(ctx, InboundFrame.Type.FRAME, frame, Unpooled.EMPTY_BUFFER);
        } else {
            assembly = ctx.alloc().buffer(payloadLength, payloadLength);
            state = State.ASSEMBLE;
        }
    }

    private void readAssembly(ChannelHandlerContext ctx, ByteBuf in) {
        int n = Math.min(remaining, in.readableBytes());
        assembly.writeBytes(in, n);
        remaining -= n;
        if (remaining == 0) {
            ByteBuf payload = assembly;
            Frame frame = current;
            assembly = null;
            current = null;
            state = State.LENGTH;
            emit(ctx, InboundFrame.Type.FRAME, frame, payload);
        }
    }

    private void readStream(ChannelHandlerContext ctx, ByteBuf in) {
        int n = Math.min(remaining, in.readableBytes());
        int keep = Math.min(n, targetLimit - targetOffset);
        if (in == lent) {
            lent = null;
            targetOffset += keep; // the socket read it there: nothing to copy
        } else if (keep > 0) {
            if (targetMemory != null) {
                copiedIntoDirect += keep;
            }
            Payloads.copyInto(target, targetOffset, in, in.readerIndex(), keep);
            targetOffset += keep;
        }
        in.skipBytes(n); // the part past the end of a truncated receive's buffer is dropped
        remaining -= n;
        if (remaining == 0) {
            endStream(ctx);
        }
    }

    private void endStream(ChannelHandlerContext ctx) {
        probeNext = targetMemory != null;
        Frame frame = current;
        current = null;
        target = null;
        targetMemory = null;
        state = State.LENGTH;
        emit(ctx, InboundFrame.Type.STREAMED, frame, null);
    }

    /**
     * For {@link TargetedReadAllocator}: while a payload streams into direct memory in the wire's
     * layout, an empty buffer over the part of it the payload fills next (never past the payload, so
     * the next frame's bytes are not read into it); releasing it frees nothing. Right after such a
     * payload, at a frame boundary, a small buffer from {@code alloc} ({@link #PROBE_READ_BYTES}) for
     * the next frame's head: a full-size read there would take the head of the next large payload
     * too (up to the adaptive read size; half of a 1 MiB message in a ping-pong), all of it then
     * copied, where after the head the socket reads the rest in place. Costs one extra small read
     * when the frame after a payload read in place is large but not read in place. Null otherwise.
     */
    ByteBuf lendReadBuffer(ByteBufAllocator alloc) {
        if (lent != null && lent.writerIndex() > 0) {
            // the socket read into the last lent buffer but it never reached readStream (this decoder must be the
            // first inbound handler and see Netty's read buffer unchanged): its bytes are not accounted for
            throw new IllegalStateException("a read into a receive's buffer never reached the frame decoder");
        }
        if (probeNext) { // between frames, or within a frame's head: no payload has begun since
            return alloc.directBuffer(PROBE_READ_BYTES, PROBE_READ_BYTES);
        }
        int n = state == State.STREAM && targetMemory != null ? Math.min(remaining, targetLimit - targetOffset) : 0;
        if (n <= 0) {
            return null;
        }
        lent = Unpooled.wrappedBuffer(targetMemory.slice(targetOffset, n)).clear();
        return lent;
    }

    long copiedIntoDirect() {
        return copiedIntoDirect;
    }

    /** True if {@code b} is the buffer over a receive's memory last lent (not a head probe). */
    boolean lentInPlace(ByteBuf b) {
        return b == lent;
    }

    /**
     * The next {@code n} bytes as a readable buffer: {@code in} itself when it holds them all and
     * nothing was gathered before, else the gather buffer once it has them; null until then.
     */
    private ByteBuf gathered(ByteBuf in, int n) {
        if (!gather.isReadable() && in.readableBytes() >= n) {
            return in;
        }
        gather.writeBytes(in, Math.min(n - gather.readableBytes(), in.readableBytes()));
        return gather.readableBytes() == n ? gather : null;
    }

    private static void expectNoPayload(String kind, int payloadLength) throws TcpProtocolException {
        if (payloadLength != 0) {
            throw new TcpProtocolException(kind + " frame carries " + payloadLength + " payload bytes (expected: 0)");
        }
    }

    /** Passes one event downstream and releases whatever payload no handler took. */
    private void emit(ChannelHandlerContext ctx, InboundFrame.Type type, Frame frame, ByteBuf payload) {
        event.set(type, frame, payload);
        try {
            ctx.fireChannelRead(event);
        } finally {
            ByteBuf left = event.clear();
            if (left != null) {
                left.release();
            }
        }
    }

    private void fail(ChannelHandlerContext ctx, TcpProtocolException cause) {
        if (state == State.FAILED) {
            return;
        }
        state = State.FAILED;
        releasePartial();
        LOG.warn("{}: closing connection with {}: {}", owner, NettyIo.peerOf(ctx.channel()), cause.getMessage());
        ctx.fireExceptionCaught(cause);
        ctx.close();
    }

    private void releasePartial() {
        if (assembly != null) {
            assembly.release();
            assembly = null;
        }
        target = null;
        targetMemory = null;
        lent = null;
        current = null;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        releasePartial();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releasePartial();
    }
}
