package io.mpirunj.runtime.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.MpiException;
import io.mpirunj.Request;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.local.LocalJob;
import io.mpirunj.runtime.transport.Frame;
import io.netty.buffer.ByteBuf;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Eager flow control: a receiver that posts no receive holds at most the credit's worth of eager
 * data; the rest waits at the sender as rendezvous, and everything still arrives in order. Both ranks
 * live in one thread (the in-JVM transport delivers on the sending thread), so every count is exact.
 */
class EagerCreditTest {
    private static final int CREDIT = 256 * 1024;
    private static final int MESSAGE = 10 * 1024;
    private static final int COUNT = 200;
    /** Messages that fit in the credit: floor(262144 / (10240 + 64)) = 25. */
    private static final int FIT = CREDIT / (MESSAGE + P2pEngine.EAGER_OVERHEAD_BYTES);

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void creditsBoundTheUnexpectedEagerBytes() {
        assertEquals(25, FIT);
        RuntimeConfig config = RuntimeConfig.defaults().withEagerCredit(CREDIT);
        try (LocalJob job = new LocalJob(2, config, (rank, code, reason) -> { })) {
            Comm sender = job.context(0).world();
            Comm receiver = job.context(1).world();
            P2pEngine receiving = job.context(1).engine();

            Request[] sends = new Request[COUNT];
            for (int k = 0; k < COUNT; k++) {
                sends[k] = sender.isend(Buffer.of(message(k)), 1, 7);
                // Eager (complete at once) exactly while the credit lasts; rendezvous (pending) after.
                assertEquals(k < FIT, sends[k].test(), "send " + k + " completed at once");
            }
            assertEquals((long) FIT * MESSAGE, receiving.unexpectedEagerBytes());

            byte[] got = new byte[MESSAGE];
            for (int k = 0; k < COUNT; k++) {
                receiver.recv(Buffer.of(got), Comm.ANY_SOURCE, Comm.ANY_TAG);
                assertTrue(Arrays.equals(message(k), got), "message " + k + " intact and in order");
                assertTrue(receiving.unexpectedEagerBytes() <= CREDIT);
            }
            Request.waitAll(sends);
            assertEquals(0, receiving.unexpectedEagerBytes());

            // The receiver has returned all but less than one batch (a quarter of the credit), so the
            // next sends are eager again: more than three quarters' worth complete at once.
            int eagerAgain = 0;
            while (sender.isend(Buffer.of(message(eagerAgain)), 1, 8).test()) {
                eagerAgain++;
            }
            assertTrue(eagerAgain >= FIT * 3 / 4, "eager again after catching up: " + eagerAgain);
            for (int k = 0; k <= eagerAgain; k++) {
                receiver.recv(Buffer.of(got), 0, 8);
            }
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void zeroCreditSendsEverythingByRendezvous() {
        try (LocalJob job = new LocalJob(2, RuntimeConfig.defaults().withEagerCredit(0), (r, c, m) -> { })) {
            Request s = job.context(0).world().isend(Buffer.of(new byte[] {5}), 1, 1);
            assertFalse(s.test());
            assertEquals(0, job.context(1).engine().unexpectedEagerBytes());
            byte[] got = new byte[1];
            job.context(1).world().recv(Buffer.of(got), 0, 1);
            s.await();
            assertEquals(5, got[0]);
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void directMemoryExhaustionIsAnMpiExceptionNamingTheSend() {
        OutOfMemoryError oom = new OutOfMemoryError("Cannot reserve 100 bytes of direct buffer memory (test)");
        P2pEngine engine = new P2pEngine(0, 2, new NoMemoryTransport(oom), 64 * 1024, CREDIT,
                WaitPolicy.of(System::nanoTime, 0, 1, 1));
        MpiException e = assertThrows(MpiException.class,
                () -> engine.isend(Buffer.of(new byte[100]), 1, 0, 3, Group.world(2)));
        assertSame(oom, e.getCause());
        assertTrue(e.getMessage().contains("send of 100 bytes to rank 1"), e.getMessage());
        assertTrue(e.getMessage().contains("Cannot reserve"), e.getMessage());
    }

    private static byte[] message(int k) {
        byte[] b = new byte[MESSAGE];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (k * 31 + i);
        }
        return b;
    }

    /** A transport whose buffers can never be allocated. */
    private static final class NoMemoryTransport extends StubTransport {
        private final OutOfMemoryError error;

        NoMemoryTransport(OutOfMemoryError error) {
            this.error = error;
        }

        @Override
        public ByteBuf allocate(int bytes) {
            throw error;
        }

        @Override
        public void send(int dst, Frame frame, ByteBuf payload, WriteListener onWritten) {
            throw new AssertionError("nothing may be sent");
        }
    }
}
