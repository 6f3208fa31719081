package io.mpirunj.runtime.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Request;
import io.mpirunj.Status;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.local.LocalJob;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Matching order across the per-source queues: posted receives of one source and ANY_SOURCE ones are
 * served oldest first, and an ANY_SOURCE receive takes the earliest arrival among the sources. One
 * thread drives three in-JVM ranks, so the order of events is exact.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MatchingOrderTest {
    private final LocalJob job = new LocalJob(3, RuntimeConfig.defaults(), (r, c, m) -> { });
    /** The rank that receives, in every case. */
    private final Comm r2 = job.context(2).world();

    @AfterEach
    void closeJob() {
        job.close();
    }

    @Test
    void postedReceivesAreServedInPostingOrderAcrossSourceAndAnySource() {
        Comm r0 = job.context(0).world();
        int[] a = new int[1];
        int[] b = new int[1];
        int[] c = new int[1];
        Request fromZeroTag5 = r2.irecv(Buffer.of(a), 0, 5);
        Request any = r2.irecv(Buffer.of(b), Comm.ANY_SOURCE, Comm.ANY_TAG);
        Request fromZero = r2.irecv(Buffer.of(c), 0, Comm.ANY_TAG);
        r0.send(Buffer.of(new int[] {1}), 2, 6); // not tag 5: the ANY_SOURCE receive is older than fromZero
        r0.send(Buffer.of(new int[] {2}), 2, 5);
        r0.send(Buffer.of(new int[] {3}), 2, 5);
        assertEquals(1, any.await().count() == 1 ? b[0] : -1);
        assertEquals(2, fromZeroTag5.await().tag() == 5 ? a[0] : -1);
        assertEquals(3, fromZero.await().tag() == 5 ? c[0] : -1);
    }

    @Test
    void anySourceTakesTheEarliestArrivalThatFits() {
        job.context(1).world().send(Buffer.of(new int[] {10}), 2, 1);
        job.context(0).world().send(Buffer.of(new int[] {20}), 2, 1);
        job.context(1).world().send(Buffer.of(new int[] {30}), 2, 2);
        job.context(0).world().send(Buffer.of(new int[] {40}), 2, 2);
        int[] got = new int[1];
        Status s = r2.recv(Buffer.of(got), Comm.ANY_SOURCE, 2);
        assertEquals("1:2:30", s.source() + ":" + s.tag() + ":" + got[0]);
        s = r2.recv(Buffer.of(got), Comm.ANY_SOURCE, Comm.ANY_TAG);
        assertEquals("1:1:10", s.source() + ":" + s.tag() + ":" + got[0]);
        assertEquals(0, r2.probe(Comm.ANY_SOURCE, Comm.ANY_TAG).source());
        s = r2.recv(Buffer.of(got), 0, 2);
        assertEquals("0:2:40", s.source() + ":" + s.tag() + ":" + got[0]);
        s = r2.recv(Buffer.of(got), Comm.ANY_SOURCE, Comm.ANY_TAG);
        assertEquals("0:1:20", s.source() + ":" + s.tag() + ":" + got[0]);
        // the messages taken from behind another (30, 40) left their queues: nothing is left to match
        assertNull(r2.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG));
    }
}
