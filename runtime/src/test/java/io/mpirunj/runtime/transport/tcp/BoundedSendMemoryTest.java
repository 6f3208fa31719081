package io.mpirunj.runtime.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.runtime.p2p.Group;
import io.mpirunj.runtime.transport.Frame;
import io.mpirunj.runtime.wire.Hello;
import io.mpirunj.runtime.wire.HelloReply;
import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A very large send from heap memory holds a bounded amount of native memory however slowly the
 * peer reads: the write buffer's high-water mark plus one chunk, not the message's size. Also for a
 * typed array, whose bytes are converted to the wire layout on the way.
 */
@ExtendWith(LeakCheck.class)
@Timeout(60)
class BoundedSendMemoryTest {
    /** Direct memory the connection's buffers may hold besides the chunks in flight (prefixes, reads). */
    private static final int SLACK_BYTES = 64 * 1024;

    /** Unpooled buffers; counts the direct memory they hold now and at most. */
    private static final class PeakCountingAllocator extends AbstractByteBufAllocator {
        private final UnpooledByteBufAllocator counted = new UnpooledByteBufAllocator(true);
        final AtomicLong peakDirectBytes = new AtomicLong();
        final CountDownLatch firstChunk = new CountDownLatch(1);

        PeakCountingAllocator() {
            super(true);
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            ByteBuf b = counted.directBuffer(initialCapacity, maxCapacity);
            peakDirectBytes.accumulateAndGet(counted.metric().usedDirectMemory(), Math::max);
            if (initialCapacity == ChunkedPayload.WRITE_CHUNK_BYTES) {
                firstChunk.countDown();
            }
            return b;
        }

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            return counted.heapBuffer(initialCapacity, maxCapacity);
        }

        @Override
        public boolean isDirectBufferPooled() {
            return false;
        }
    }

    @Test
    void aHugeHeapSendToASlowReaderHoldsAtMostTheHighWaterMarkPlusAChunk() throws Exception {
        int bytes = 64 * 1024 * 1024;
        byte[] data = new byte[bytes];
        new Random(3).nextBytes(data);
        TcpConfig config = TcpConfig.defaults();
        PeakCountingAllocator allocator = new PeakCountingAllocator();
        try (ServerSocket fakeRankOne = new ServerSocket()) {
            fakeRankOne.setReceiveBufferSize(64 * 1024); // the kernel absorbs little: the sender must wait
            fakeRankOne.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
            TcpTransport t = new TcpTransport(0, 2, TcpTransportTest.TOKEN, config, allocator);
            try {
                t.setPeerAddresses(List.of(t.advertisedAddress(),
                        new InetSocketAddress("127.0.0.1", fakeRankOne.getLocalPort())));
                t.start(new RecordingSink());
                TcpTransportTest.Listeners written = new TcpTransportTest.Listeners(1);
                t.send(1, Frame.data(5, bytes), Unpooled.wrappedBuffer(data), written);
                try (Socket s = fakeRankOne.accept()) {
                    DataInputStream in = new DataInputStream(s.getInputStream());
                    byte[] hello = new byte[in.readInt()];
                    in.readFully(hello);
                    assertEquals(0, Hello.parseFrom(hello).getRank());
                    byte[] reply = HelloReply.newBuilder().setProtocolVersion(WireProtocol.VERSION).setAccepted(true)
                            .setRank(1).build().toByteArray();
                    DataOutputStream out = new DataOutputStream(s.getOutputStream());
                    out.writeInt(reply.length);
                    out.write(reply);
                    out.flush();
                    // Read nothing until the sender has started copying: from then on it runs ahead of us.
                    assertTrue(allocator.firstChunk.await(30, TimeUnit.SECONDS), "no chunk was ever copied");
                    int frameBytes = in.readInt();
                    in.skipNBytes(frameBytes - bytes); // header length and header
                    byte[] piece = new byte[64 * 1024];
                    for (int at = 0; at < bytes; at += piece.length) {
                        in.readFully(piece);
                        assertArrayEquals(Arrays.copyOfRange(data, at, at + piece.length), piece, "bytes at " + at);
                    }
                }
                written.awaitSuccess();
            } finally {
                t.close();
            }
        }
        assertBounded(allocator, bytes);
    }

    @Test
    void aHugeIntArraySentByTheEngineIsConvertedAChunkAtATime() {
        int[] data = new Random(5).ints(16 * 1024 * 1024).toArray(); // 64 MiB: rendezvous, DATA converted
        int[] got = new int[data.length];
        PeakCountingAllocator allocator = new PeakCountingAllocator();
        try (EnginePair pair = new EnginePair(64 * 1024, 4 << 20, UnaryOperator.identity(), allocator)) {
            Group world = Group.world(2);
            Request r = pair.eb.irecv(Buffer.of(got), 0, 0, 1, world);
            pair.ea.isend(Buffer.of(data), 1, 0, 1, world).await();
            r.await();
        }
        assertArrayEquals(data, got);
        assertBounded(allocator, data.length * Integer.BYTES);
    }

    @Test
    void aStreamedEagerDoubleArrayArrivesConverted() {
        double[] data = new Random(7).doubles(128 * 1024 + 3).toArray(); // ~1 MiB: one streamed EAGER frame
        double[] got = new double[data.length];
        try (EnginePair pair = new EnginePair(64 * 1024, 4 << 20, UnaryOperator.identity())) {
            Group world = Group.world(2);
            Request r = pair.eb.irecv(Buffer.of(got), 0, 0, 1, world);
            pair.ea.isend(Buffer.of(data), 1, 0, 1, world).await();
            r.await();
        }
        assertArrayEquals(data, got);
    }

    @Test
    void aBigEndianLongByteBufferArrivesAsItsValues() {
        long[] values = new Random(11).longs(3 * ChunkedPayload.WRITE_CHUNK_BYTES / Long.BYTES + 5).toArray();
        java.nio.ByteBuffer big = java.nio.ByteBuffer.allocateDirect(values.length * Long.BYTES); // big-endian
        big.asLongBuffer().put(values);
        long[] got = new long[values.length];
        try (EnginePair pair = new EnginePair(64 * 1024, 4 << 20, UnaryOperator.identity())) {
            Group world = Group.world(2);
            Request r = pair.eb.irecv(Buffer.of(got), 0, 0, 1, world);
            pair.ea.isend(Buffer.of(big, io.mpirunj.ElementType.LONG), 1, 0, 1, world).await();
            r.await();
        }
        assertArrayEquals(values, got);
    }

    private static void assertBounded(PeakCountingAllocator allocator, int bytes) {
        long bound = TcpConfig.defaults().writeHighWaterMark() + ChunkedPayload.WRITE_CHUNK_BYTES + SLACK_BYTES;
        assertTrue(allocator.peakDirectBytes.get() <= bound, "a send of " + bytes + " bytes held up to "
                + allocator.peakDirectBytes.get() + " bytes of direct memory (expected: <= " + bound + ")");
    }
}
