package io.mpirunj.runtime.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Request;
import io.mpirunj.runtime.JobControl;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.local.LocalJob;
import io.mpirunj.runtime.transport.local.LocalTransports;
import io.mpirunj.runtime.p2p.WaitPolicy;
import io.netty.buffer.ByteBuf;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The seams later transports and the fabric emulation plug into: the factory, the decorator, the clock. */
class TransportSeamsTest {
    private static final JobControl NO_CONTROL = (rank, code, reason) -> { };

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void theConfiguredDecoratorSeesEveryFrameTheEngineSends() {
        AtomicInteger eagerFrames = new AtomicInteger();
        RuntimeConfig config = RuntimeConfig.defaults()
                .withTransportDecorator(t -> new Counting(t, eagerFrames));
        try (LocalJob job = new LocalJob(2, config, NO_CONTROL)) {
            Comm sender = job.context(0).world();
            Comm receiver = job.context(1).world();
            for (int k = 0; k < 3; k++) {
                sender.isend(Buffer.of(new int[] {k}), 1, 0);
            }
            int[] got = new int[1];
            for (int k = 0; k < 3; k++) {
                receiver.recv(Buffer.of(got), 0, 0);
                assertEquals(k, got[0]);
            }
            assertEquals(3, eagerFrames.get());
        }
    }

    @Test
    void aTransportThatDoesNotFitTheJobIsOneClearError() {
        RuntimeConfig tcp = RuntimeConfig.from(Map.of("MPIRUNJ_TRANSPORT", "tcp"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new LocalJob(2, tcp, NO_CONTROL));
        assertEquals("mpirunj.transport=tcp (expected: auto or local for ranks as threads)", e.getMessage());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> RuntimeConfig.from(Map.of("MPIRUNJ_TRANSPORT", "carrier-pigeon")));
        assertEquals("mpirunj.transport=carrier-pigeon (expected: auto, tcp or local)", bad.getMessage());
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void theEngineTellsTimeByTheInjectedClock() {
        AtomicLong now = new AtomicLong(42_000_000_000L);
        RuntimeConfig config = RuntimeConfig.defaults().withClock(now::get);
        try (LocalJob job = new LocalJob(2, config, NO_CONTROL)) {
            Comm world = job.context(0).world();
            assertEquals(42_000_000_000L, world.wtimeNs());
            assertEquals(42.0, world.wtime());
            // Every reading moves this clock on by 10 s: a 5 s timed wait has expired by its next reading.
            RuntimeConfig jumping = RuntimeConfig.defaults().withClock(() -> now.addAndGet(10_000_000_000L));
            try (LocalJob other = new LocalJob(2, jumping, NO_CONTROL)) {
                Request r = other.context(0).world().irecv(Buffer.of(new int[1]), 1, 0);
                assertNull(r.await(5, TimeUnit.SECONDS));
                assertFalse(r.test());
            }
        }
    }

    @Test
    void waitersNeitherSpinNorYieldWhenRanksOutnumberCores() {
        WaitPolicy free = WaitPolicy.of(System::nanoTime, 2_000, 2, 2);
        WaitPolicy crowded = WaitPolicy.of(System::nanoTime, 2_000, 8, 2);
        assertEquals("WaitPolicy[spin 2000 ns, yield until 100000 ns, then park]", free.toString());
        assertFalse(crowded.spins());
        assertEquals("WaitPolicy[spin 0 ns, yield until 0 ns, then park]", crowded.toString());
        assertEquals(100_000, free.pollNanos());
        assertEquals(0, crowded.pollNanos()); // a wait on several requests blocks at once too
    }

    @Test
    void crowdedRankThreadsYieldBeforeParking() {
        Transport inJvm = new LocalTransports(2).create(0, 2);
        assertEquals(20_000, inJvm.crowdedYieldNanos());
        assertEquals(20_000, new Counting(inJvm, new AtomicInteger()).crowdedYieldNanos()); // decorators pass it on
        WaitPolicy crowded = WaitPolicy.of(System::nanoTime, inJvm.spinBeforeYieldNanos(), inJvm.crowdedYieldNanos(), 8, 2);
        assertEquals("WaitPolicy[spin 0 ns, yield until 20000 ns, then park]", crowded.toString());
        assertEquals(20_000, crowded.pollNanos());
        WaitPolicy free = WaitPolicy.of(System::nanoTime, inJvm.spinBeforeYieldNanos(), inJvm.crowdedYieldNanos(), 2, 2);
        assertEquals("WaitPolicy[spin 20000 ns, yield until 100000 ns, then park]", free.toString());
    }

    /** Counts the EAGER frames sent through it. */
    private static final class Counting extends ForwardingTransport {
        private final AtomicInteger eager;

        Counting(Transport inner, AtomicInteger eager) {
            super(inner);
            this.eager = eager;
        }

        @Override
        public void send(int dst, Frame frame, ByteBuf payload, WriteListener onWritten) {
            if (frame.kind() == FrameKind.EAGER) {
                eager.incrementAndGet();
            }
            inner.send(dst, frame, payload, onWritten);
        }

        @Override // converting sends (typed arrays) reach the inner transport without passing send
        public void sendConverting(int dst, Frame frame, io.mpirunj.Buffer src, WriteListener onWritten) {
            if (frame.kind() == FrameKind.EAGER) {
                eager.incrementAndGet();
            }
            inner.sendConverting(dst, frame, src, onWritten);
        }
    }
}
