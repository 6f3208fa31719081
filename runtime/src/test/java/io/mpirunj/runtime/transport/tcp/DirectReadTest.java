package io.mpirunj.runtime.transport.tcp;

import static io.mpirunj.runtime.transport.tcp.EnginePair.CREDIT;
import static io.mpirunj.runtime.transport.tcp.EnginePair.EAGER_LIMIT;
import static io.mpirunj.runtime.transport.tcp.EnginePair.WORLD;
import static io.mpirunj.runtime.transport.tcp.EnginePair.random;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.ElementType;
import io.mpirunj.Request;
import io.mpirunj.TruncationException;
import io.netty.buffer.PooledByteBufAllocator;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A payload streamed into direct memory in the wire's layout is read there by the socket itself
 * ({@link TargetedReadAllocator}), never past the payload's end: the data arrives intact, a
 * truncated receive keeps only what fits and the next frame is unharmed, and memory the bytes must
 * be converted into (a big-endian typed buffer) still gets them converted; a sender that dies in the
 * middle of a payload fails the receive (never a hang, never a receive completed with partial data).
 * Each case on epoll and on NIO (the lent buffer goes through both transports' read paths).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DirectReadTest {
    private EnginePair pair;

    private void connect(boolean epoll) {
        pair = new EnginePair(EAGER_LIMIT, CREDIT, UnaryOperator.identity(), PooledByteBufAllocator.DEFAULT,
                TcpConfig.defaults().withPreferEpoll(epoll));
    }

    @AfterEach
    void close() {
        if (pair != null) {
            pair.close();
        }
    }

    private static byte[] contents(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    /** Sends {@code data} from rank 0 into {@code into}, posted at rank 1 first; returns the receive. */
    private Request transfer(byte[] data, Buffer into, int tag) {
        Request r = pair.eb.irecv(into, 0, 0, tag, WORLD);
        pair.ea.isend(Buffer.of(data), 1, 0, tag, WORLD).await();
        return r;
    }

    /** Socket reads lent the receive's memory so far (0 before rank 0's connection is accepted). */
    private long lentReads() {
        io.netty.channel.Channel in = pair.b.inboundChannel(0);
        return in == null ? 0 : ((TargetedReadAllocator) in.config().getRecvByteBufAllocator()).lentReads();
    }

    private long copiedIntoDirect() {
        io.netty.channel.Channel in = pair.b.inboundChannel(0);
        return in == null ? 0 : ((TargetedReadAllocator) in.config().getRecvByteBufAllocator()).copiedIntoDirect();
    }

    /**
     * After a payload read in place, the next frame's head is read with a small probe even when it arrives
     * later (the read right after the payload finds nothing, as in a ping-pong), so all of the next large
     * payload is read in place too: only the few bytes of it the probe took after the frame's head are copied.
     */
    @ParameterizedTest(name = "epoll {0}")
    @ValueSource(booleans = {true, false})
    void aPayloadSentAfterTheLastOneWasReadIsReadWhollyInPlace(boolean epoll) {
        connect(epoll);
        for (int i = 0; i < 4; i++) {
            byte[] data = random(1 << 20, 10 + i);
            ByteBuffer got = ByteBuffer.allocateDirect(data.length);
            long before = copiedIntoDirect();
            transfer(data, Buffer.of(got), 10 + i).await(); // sent only once the last one was received
            assertArrayEquals(data, contents(got));
            if (i > 0) { // the first frame's head came before any payload was read in place
                long copied = copiedIntoDirect() - before; // at most what the probe took after the head
                assertTrue(copied < FrameDecoder.PROBE_READ_BYTES, "message " + i + ": " + copied
                        + " bytes copied, not read in place");
            }
        }
    }

    @ParameterizedTest(name = "epoll {0}")
    @ValueSource(booleans = {true, false})
    void streamedEagerAndRendezvousPayloadsAreReadStraightIntoADirectBuffer(boolean epoll) {
        connect(epoll);
        byte[] eager = random(1 << 20, 1); // streamed eager (within half the credit)
        ByteBuffer got = ByteBuffer.allocateDirect(eager.length);
        transfer(eager, Buffer.of(got), 1).await();
        assertArrayEquals(eager, contents(got));
        long afterEager = lentReads();
        assertTrue(afterEager > 0, "no socket read went into the direct buffer");

        byte[] big = random(3 << 20, 2); // above half the credit: RTS, CTS, DATA
        ByteBuffer got2 = ByteBuffer.allocateDirect(big.length);
        transfer(big, Buffer.of(got2), 2).await();
        assertArrayEquals(big, contents(got2));
        assertTrue(lentReads() > afterEager, "the DATA payload was not read into the direct buffer");
    }

    @ParameterizedTest(name = "epoll {0}")
    @ValueSource(booleans = {true, false})
    void aTruncatedDirectReceiveKeepsWhatFitsAndTheNextFrameArrivesIntact(boolean epoll) {
        connect(epoll);
        byte[] data = random(1 << 20, 3);
        ByteBuffer got = ByteBuffer.allocateDirect(100_000);
        Request r = transfer(data, Buffer.of(got), 3);
        assertThrows(TruncationException.class, r::await);
        assertArrayEquals(Arrays.copyOf(data, got.capacity()), contents(got));
        byte[] next = random(200_000, 4);
        ByteBuffer got2 = ByteBuffer.allocateDirect(next.length);
        transfer(next, Buffer.of(got2), 4).await();
        assertArrayEquals(next, contents(got2));
    }

    @ParameterizedTest(name = "epoll {0}")
    @ValueSource(booleans = {true, false})
    void aBigEndianIntBufferIsConvertedNotReadRaw(boolean epoll) {
        connect(epoll);
        int[] ints = new int[300_000];
        Random rnd = new Random(5);
        for (int i = 0; i < ints.length; i++) {
            ints[i] = rnd.nextInt();
        }
        ByteBuffer got = ByteBuffer.allocateDirect(ints.length * 4).order(ByteOrder.BIG_ENDIAN);
        Request r = pair.eb.irecv(Buffer.of(got, ElementType.INT), 0, 0, 5, WORLD);
        pair.ea.isend(Buffer.of(ints), 1, 0, 5, WORLD).await();
        r.await();
        assertEquals(0, lentReads(), "a buffer whose bytes need converting was read into raw");
        for (int i = 0; i < ints.length; i++) {
            assertEquals(ints[i], got.getInt(i * 4), "element " + i);
        }
    }

    @ParameterizedTest(name = "epoll {0}")
    @ValueSource(booleans = {true, false})
    void aSenderDyingMidPayloadFailsTheReceiveOrItCompletesWhole(boolean epoll) {
        connect(epoll);
        byte[] big = random(32 << 20, 6); // rendezvous, 32 MiB: still streaming when the sender's transport closes
        ByteBuffer got = ByteBuffer.allocateDirect(big.length);
        Request r = pair.eb.irecv(Buffer.of(got), 0, 0, 6, WORLD);
        pair.ea.isend(Buffer.of(big), 1, 0, 6, WORLD);
        while (lentReads() == 0 && !r.test()) {
            Thread.onSpinWait(); // until the payload has begun to arrive
        }
        pair.a.close();
        try {
            r.await();
            assertArrayEquals(big, contents(got), "completed, so it must be whole");
        } catch (RuntimeException failed) {
            // the sender's death, reported on the receive: what must happen when the payload was cut
        }
    }
}
