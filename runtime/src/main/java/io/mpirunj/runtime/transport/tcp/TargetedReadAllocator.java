package io.mpirunj.runtime.transport.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.util.UncheckedBooleanSupplier;

/**
 * Socket reads of an inbound rank connection: straight into the receive buffer a payload is being
 * streamed into, when the {@link FrameDecoder} lends it ({@link FrameDecoder#lendReadBuffer}: direct
 * memory in the wire's layout), so such a payload is copied once, by the kernel, as Open MPI's TCP
 * BTL does; otherwise into the adaptive read buffers of {@code fallback}. A heap array cannot be
 * lent: the native socket read needs a memory address.
 *
 * <p>Netty keeps one read handle per channel from its first read on, so this allocator is set when
 * the channel is made and {@link #serve} names the decoder once the handshake has installed it.
 * Confined to the channel's event loop.
 */
final class TargetedReadAllocator implements RecvByteBufAllocator {
    private final RecvByteBufAllocator fallback;
    private FrameDecoder decoder;
    /** Buffers lent over a receive's memory so far (tests check the path is taken); not the head probes. */
    private long lentReads;

    TargetedReadAllocator(RecvByteBufAllocator fallback) {
        this.fallback = fallback;
    }

    /** From now on, reads go where {@code frames} lends. */
    void serve(FrameDecoder frames) {
        this.decoder = frames;
    }

    long lentReads() {
        return lentReads;
    }

    /** Payload bytes bound for direct memory that the decoder copied there (tests check the probe works). */
    long copiedIntoDirect() {
        return decoder == null ? 0 : decoder.copiedIntoDirect();
    }

    @Override
    public Handle newHandle() {
        return new TargetedHandle((ExtendedHandle) fallback.newHandle());
    }

    /** Netty's delegating handle for everything but where a read goes (and the extended continueReading). */
    private final class TargetedHandle extends DelegatingHandle implements ExtendedHandle {
        TargetedHandle(ExtendedHandle adaptive) {
            super(adaptive);
        }

        @Override
        public ByteBuf allocate(ByteBufAllocator alloc) {
            ByteBuf lent = decoder == null ? null : decoder.lendReadBuffer(alloc);
            if (lent == null) {
                return delegate().allocate(alloc);
            }
            if (decoder.lentInPlace(lent)) {
                lentReads++;
            }
            return lent;
        }

        @Override
        public boolean continueReading(UncheckedBooleanSupplier maybeMoreDataSupplier) {
            return ((ExtendedHandle) delegate()).continueReading(maybeMoreDataSupplier);
        }
    }
}
