package io.mpirunj.runtime.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.MpiException;
import io.mpirunj.Request;
import io.mpirunj.runtime.transport.Frame;
import io.netty.buffer.Unpooled;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The engine's judgement of a peer in Mpi.finish, with the peer's frames delivered by hand, so that the notice can
 * come before the messages it counts (as it may from the launcher, or past an emulated fabric's held messages): a
 * receive from the peer fails only once every message it counted has arrived.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PeerInFinishEngineTest {
    private static final int P2P = 0;
    private final Group world = Group.world(2);
    private final P2pEngine engine = new P2pEngine(0, 2, new StubTransport(), 64 * 1024, 1 << 20,
            WaitPolicy.of(System::nanoTime, 0, 1, 1));

    /** Rank 1's eager message with tag {@code tag} and one byte, {@code value}, arrives. */
    private void arrives(int context, int tag, int value) {
        engine.onFrame(1, Frame.eager(context, tag, 1), Unpooled.wrappedBuffer(new byte[] {(byte) value}));
    }

    private Request recv(byte[] into, int tag) {
        return engine.irecv(Buffer.of(into), 1, P2P, tag, world);
    }

    @Test
    void aReceiveFromThePeerFailsOnlyOnceEveryMessageItCountedHasArrived() {
        byte[] first = new byte[1];
        Request r5 = recv(first, 5);
        engine.onPeerInFinish(1, 2); // its two messages are still on their way
        assertFalse(r5.test());
        arrives(P2P, 5, 11);
        r5.await();
        assertEquals(11, first[0]);
        byte[] second = new byte[1];
        Request r6 = recv(second, 6);
        assertFalse(r6.test(), "one counted message is still to come");
        arrives(P2P, 6, 22);
        r6.await();
        assertEquals(22, second[0]);
        MpiException never = assertThrows(MpiException.class, () -> recv(new byte[1], 7).await());
        assertEquals("rank 0: receive from rank 1 (world 1), tag 7, context 0 can never complete: rank 1 (world) is in "
                + "Mpi.finish and every message it sent to rank 0 has arrived (a send it never made? or Mpi.finish in a "
                + "finally block, reached while an exception passed through it?)", never.getMessage());
    }

    /** The arrival that completes the count fails the receives already waiting; what it brought is still received. */
    @Test
    void theLastCountedArrivalFailsTheWaitingReceivesAndIsStillReceived() {
        Request r9 = recv(new byte[1], 9);
        engine.onPeerInFinish(1, 1);
        assertFalse(r9.test());
        arrives(P2P, 8, 33); // unexpected: no receive for tag 8 yet
        assertThrows(MpiException.class, r9::await);
        byte[] got = new byte[1];
        recv(got, 8).await();
        assertEquals(33, got[0]);
    }

    /** ANY_SOURCE never fails for it: this rank may still send to itself. */
    @Test
    void anAnySourceReceiveStillWaits() {
        Request any = engine.irecv(Buffer.of(new byte[1]), P2pEngine.ANY, P2P, 4, world);
        engine.onPeerInFinish(1, 0);
        assertFalse(any.test());
        assertThrows(MpiException.class, () -> recv(new byte[1], 4).await(), "rank 1 itself: doomed");
    }

    /** The fence's own messages (ranks as threads) come after the counts: they do not complete them. */
    @Test
    void theFenceMessagesAreNotCounted() {
        Request r5 = recv(new byte[1], 5);
        engine.onPeerInFinish(1, 1);
        arrives(1, P2pEngine.FINISH_FENCE_TAG, 0); // may overtake a message an emulated fabric still holds
        assertFalse(r5.test(), "the counted message has not arrived");
        arrives(P2P, 5, 44);
        r5.await();
    }

    /** A blocking probe from the peer ends when the last counted message arrives, even if a receive takes it. */
    @Test
    void aBlockingProbeFromThePeerEndsWhenItsLastMessageArrives() throws Exception {
        Request r5 = recv(new byte[1], 5);
        engine.onPeerInFinish(1, 1);
        CompletableFuture<Object> probe = CompletableFuture.supplyAsync(() -> engine.probe(1, P2P, 4, world));
        arrives(P2P, 5, 55); // taken by r5: nothing queued for the probe to see
        r5.await();
        ExecutionException e = assertThrows(ExecutionException.class, () -> probe.get(20, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof MpiException && e.getCause().getMessage().contains("in Mpi.finish"),
                String.valueOf(e.getCause()));
    }
}
