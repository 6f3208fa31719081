package io.mpirunj.runtime.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.ElementType;
import io.mpirunj.Request;
import io.mpirunj.TruncationException;
import io.mpirunj.runtime.p2p.Group;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A payload streamed into direct memory in the wire's layout is read there by the socket itself
 * ({@link TargetedReadAllocator}), never past the payload's end: the data arrives intact, a
 * truncated receive keeps only what fits and the next frame is unharmed, and memory the bytes must
 * be converted into (a big-endian typed buffer) still gets them converted.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DirectReadTest {
    private static final Group WORLD = Group.world(2);
    private static final int EAGER_LIMIT = 64 * 1024;
    private static final int CREDIT = 4 << 20;

    private EnginePair pair;

    @BeforeEach
    void connect() {
        pair = new EnginePair(EAGER_LIMIT, CREDIT, UnaryOperator.identity());
    }

    @AfterEach
    void close() {
        pair.close();
    }

    private static byte[] random(int bytes, long seed) {
        byte[] data = new byte[bytes];
        new Random(seed).nextBytes(data);
        return data;
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

    private long lentReads() {
        return ((TargetedReadAllocator) pair.b.inboundChannel(0).config().getRecvByteBufAllocator()).lentReads();
    }

    @Test
    void streamedEagerAndRendezvousPayloadsAreReadStraightIntoADirectBuffer() {
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

    @Test
    void aTruncatedDirectReceiveKeepsWhatFitsAndTheNextFrameArrivesIntact() {
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

    @Test
    void aBigEndianIntBufferIsConvertedNotReadRaw() {
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
}
