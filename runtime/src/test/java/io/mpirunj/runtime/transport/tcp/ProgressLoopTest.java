package io.mpirunj.runtime.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.runtime.p2p.Group;
import io.mpirunj.runtime.p2p.P2pEngine;
import io.mpirunj.runtime.p2p.RequestImpl;
import io.mpirunj.runtime.transport.Frame;
import io.mpirunj.runtime.transport.TransportProgress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Progress driven by the waiting rank ({@link ProgressLoop}): who runs the I/O. A rank that waits
 * receives on its own thread, a sender that finds the token free writes on its own thread, and
 * while the rank does not wait its helper thread keeps progress going.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProgressLoopTest {
    private static final Group WORLD = Group.world(2);

    private EnginePair pair;
    private TcpTransport a;
    private TcpTransport b;
    private P2pEngine ea;
    private P2pEngine eb;

    @BeforeEach
    void connect() {
        pair = new EnginePair(16 * 1024, 4 << 20, sink -> sink);
        a = pair.a;
        b = pair.b;
        ea = pair.ea;
        eb = pair.eb;
        // connections up, both ways
        exchange(new byte[] {1});
    }

    @AfterEach
    void close() {
        pair.close();
    }

    private void exchange(byte[] data) {
        byte[] got = new byte[data.length];
        Request r = eb.irecv(Buffer.of(got), 0, 0, 7, WORLD);
        ea.isend(Buffer.of(data), 1, 0, 7, WORLD).await();
        r.await();
        assertArrayEquals(data, got);
        byte[] back = new byte[data.length];
        Request r2 = ea.irecv(Buffer.of(back), 1, 0, 7, WORLD);
        eb.isend(Buffer.of(data), 0, 0, 7, WORLD).await();
        r2.await();
    }

    @Test
    void theTransportIsDrivenByWaitersUnlessItHasEventLoopThreads() {
        assertInstanceOf(ProgressLoop.class, a.progress());
        TcpTransport withLoops = new TcpTransport(0, 1, TcpTransportTest.TOKEN, TcpConfig.defaults().withIoThreads(1));
        try {
            assertNull(withLoops.progress());
        } finally {
            withLoops.close();
        }
    }

    @Test
    void aWaitingRankReceivesOnItsOwnThread() {
        ProgressLoop loop = (ProgressLoop) b.progress();
        Thread receiver = Thread.currentThread();
        for (int i = 0; i < 20; i++) {
            AtomicReference<Thread> completedOn = new AtomicReference<>();
            RequestImpl r = (RequestImpl) eb.irecv(Buffer.of(new byte[4]), 0, 0, 3, WORLD);
            r.onCompletion(() -> completedOn.set(Thread.currentThread()));
            Thread sender = new Thread(() -> {
                while (!loop.inEventLoop(receiver)) { // send once the receiver drives its transport
                    Thread.yield();
                }
                ea.isend(Buffer.of(new byte[] {1, 2, 3, 4}), 1, 0, 3, WORLD).await();
            });
            sender.start();
            r.await();
            joinQuietly(sender);
            assertSame(receiver, completedOn.get(), "message " + i + " was matched on another thread");
        }
    }

    @Test
    void aSenderHoldingTheTokenWritesItself() throws Exception {
        TransportProgress io = a.progress();
        assertTrue(io.enterDriving());
        try {
            assertSame(Thread.currentThread(), writerOfOneFrame());
        } finally {
            io.exitDriving();
        }
    }

    @Test
    void aSenderThatFindsTheTokenFreeWritesItself() throws Exception {
        // The helper may hold the token when the first frame goes (then it writes it); a sender that
        // finds it there asks for it back, so one of the next frames must go out on this thread.
        boolean direct = false;
        for (int i = 0; i < 1000 && !direct; i++) {
            direct = writerOfOneFrame() == Thread.currentThread();
        }
        assertTrue(direct, "no frame of 1000 was written by the sending thread");
    }

    /** Sends one eager frame from a to b and returns the thread that wrote it to the socket. */
    private Thread writerOfOneFrame() throws InterruptedException {
        AtomicReference<Thread> writtenOn = new AtomicReference<>();
        CountDownLatch written = new CountDownLatch(1);
        a.send(1, Frame.eager(0, 5, 1), a.allocate(1).writeByte(9), cause -> {
            writtenOn.set(Thread.currentThread());
            written.countDown();
        });
        written.await();
        return writtenOn.get();
    }

    private static void joinQuietly(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void theHelperReceivesWhileTheRankDoesNotWait() throws Exception {
        // The receiving rank "computes" (waits on a latch, not on its engine): its helper must match the message.
        AtomicReference<Thread> completedOn = new AtomicReference<>();
        CountDownLatch matched = new CountDownLatch(1);
        RequestImpl r = (RequestImpl) eb.irecv(Buffer.of(new byte[2]), 0, 0, 4, WORLD);
        r.onCompletion(() -> {
            completedOn.set(Thread.currentThread());
            matched.countDown();
        });
        Thread sender = new Thread(() -> ea.isend(Buffer.of(new byte[] {5, 6}), 1, 0, 4, WORLD).await());
        sender.start();
        matched.await();
        sender.join();
        assertTrue(completedOn.get().getName().endsWith("-progress"), "matched on " + completedOn.get());
    }

    @Test
    void aWaitInsideACallbackOfTheDrivingThreadIsRefused() {
        TransportProgress io = b.progress();
        assertTrue(io.enterDriving());
        try {
            assertThrows(IllegalStateException.class, io::enterDriving);
        } finally {
            io.exitDriving();
        }
    }
}
