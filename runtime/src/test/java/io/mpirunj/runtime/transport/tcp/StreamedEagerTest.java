package io.mpirunj.runtime.transport.tcp;

import static io.mpirunj.runtime.transport.tcp.EnginePair.CREDIT;
import static io.mpirunj.runtime.transport.tcp.EnginePair.EAGER_LIMIT;
import static io.mpirunj.runtime.transport.tcp.EnginePair.WORLD;
import static io.mpirunj.runtime.transport.tcp.EnginePair.random;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.TruncationException;
import io.mpirunj.runtime.p2p.P2pEngine;
import io.mpirunj.runtime.transport.Frame;
import io.mpirunj.runtime.transport.FrameSink;
import io.netty.buffer.ByteBuf;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Messages above the eager limit and within half the credit go over TCP as one EAGER frame written
 * from the sender's array (no RTS/CTS), streamed into a receive posted before its header arrived, and
 * assembled and queued otherwise; past the credit they fall back to rendezvous.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StreamedEagerTest {
    private EnginePair pair;
    private P2pEngine ea;
    private P2pEngine eb;
    /** What rank 1 received, in order: a frame kind, "STREAMED" when a payload went straight to its target. */
    private final Queue<String> seenByB = new ConcurrentLinkedQueue<>();

    @BeforeEach
    void connect() {
        pair = new EnginePair(EAGER_LIMIT, CREDIT, this::recording);
        ea = pair.ea;
        eb = pair.eb;
    }

    @AfterEach
    void close() {
        pair.close();
    }

    private FrameSink recording(FrameSink engine) {
        return new FrameSink() {
            @Override
            public void onFrame(int src, Frame frame, ByteBuf payload) {
                seenByB.add(frame.kind().name());
                engine.onFrame(src, frame, payload);
            }

            @Override
            public Buffer dataTarget(int src, Frame frame) {
                return engine.dataTarget(src, frame);
            }

            @Override
            public void onDataStreamed(int src, Frame frame) {
                seenByB.add(frame.kind().name() + " STREAMED");
                engine.onDataStreamed(src, frame);
            }

            @Override
            public void onPeerFailed(int peer, Throwable cause) {
                engine.onPeerFailed(peer, cause);
            }
        };
    }

    @Test
    void aPostedReceiveGetsAMebibyteStreamedWithoutAHandshake() {
        byte[] data = random(1 << 20, 1);
        byte[] got = new byte[data.length];
        Request r = eb.irecv(Buffer.of(got), 0, 0, 5, WORLD);
        ea.isend(Buffer.of(data), 1, 0, 5, WORLD).await();
        r.await();
        assertArrayEquals(data, got);
        assertEquals(List.of("EAGER STREAMED"), List.copyOf(seenByB));
    }

    @Test
    void anUnexpectedOneIsQueuedWholeAndMatchedLater() {
        byte[] data = random(300_000, 2);
        ea.isend(Buffer.of(data), 1, 0, 6, WORLD).await();
        eb.probe(0, 0, 6, WORLD); // queued as unexpected
        byte[] got = new byte[data.length];
        eb.irecv(Buffer.of(got), 0, 0, 6, WORLD).await();
        assertArrayEquals(data, got);
        assertEquals(List.of("EAGER"), List.copyOf(seenByB));
    }

    @Test
    void beyondTheCreditTheRestGoByRendezvousInOrder() {
        int bytes = 3 * CREDIT / 8; // two fit in the credit, the third does not
        byte[][] data = {random(bytes, 3), random(bytes, 4), random(bytes, 5)};
        for (int i = 0; i < data.length; i++) {
            ea.isend(Buffer.of(data[i]), 1, 0, 10 + i, WORLD); // no credit comes back until rank 1 receives
        }
        for (int i = 0; i < data.length; i++) {
            eb.probe(0, 0, 10 + i, WORLD); // all three are unexpected at rank 1
        }
        for (int i = 0; i < data.length; i++) {
            byte[] got = new byte[bytes];
            eb.irecv(Buffer.of(got), 0, 0, 10 + i, WORLD).await();
            assertArrayEquals(data[i], got);
        }
        assertEquals(List.of("EAGER", "EAGER", "RTS", "DATA STREAMED"), List.copyOf(seenByB));
    }

    @Test
    void aShortPostedReceiveIsTruncatedAndTheSendStillCompletes() {
        byte[] data = random(1 << 20, 6);
        byte[] got = new byte[100_000];
        Request r = eb.irecv(Buffer.of(got), 0, 0, 8, WORLD);
        ea.isend(Buffer.of(data), 1, 0, 8, WORLD).await();
        assertThrows(TruncationException.class, r::await);
        assertArrayEquals(java.util.Arrays.copyOf(data, got.length), got);
        // the connection carries on: the next message arrives intact
        byte[] next = random(200_000, 7);
        byte[] got2 = new byte[next.length];
        Request r2 = eb.irecv(Buffer.of(got2), 0, 0, 9, WORLD);
        ea.isend(Buffer.of(next), 1, 0, 9, WORLD).await();
        r2.await();
        assertArrayEquals(next, got2);
    }
}
