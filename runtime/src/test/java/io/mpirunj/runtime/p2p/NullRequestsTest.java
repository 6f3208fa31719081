package io.mpirunj.runtime.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Request;
import io.mpirunj.Status;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.local.LocalJob;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A null entry in the arrays of {@link Request#waitAny}, {@link Request#waitAll} and {@link Request#testAll} is no
 * request (MPI's {@code MPI_REQUEST_NULL}), so the usual loop over a fixed array that sets each finished request to
 * null works; {@code waitAny} with nothing but nulls returns {@link Request#UNDEFINED}. (A NullPointerException from
 * inside the runtime before.)
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class NullRequestsTest {
    @Test
    void theWaitAnyLoopOverAFixedArrayFinishesEveryRequestOnce() {
        try (LocalJob job = new LocalJob(2, RuntimeConfig.defaults(), (r, c, m) -> { })) {
            Comm zero = job.context(0).world();
            Comm one = job.context(1).world();
            int[][] got = new int[3][1];
            Request[] pending = new Request[3];
            for (int t = 0; t < 3; t++) {
                pending[t] = zero.irecv(Buffer.of(got[t]), 1, t);
            }
            for (int t = 2; t >= 0; t--) {
                one.send(Buffer.of(new int[] {10 + t}), 0, t);
            }
            int finished = 0;
            int i;
            while ((i = Request.waitAny(pending)) != Request.UNDEFINED) {
                assertTrue(pending[i].test());
                pending[i] = null;
                finished++;
            }
            assertEquals(3, finished);
            assertEquals(10, got[0][0]);
            assertEquals(12, got[2][0]);
            assertTrue(Request.testAll(pending));
            Request receive = zero.irecv(Buffer.of(new int[1]), 1, 7); // posted first: the send need not be eager
            Status[] statuses = Request.waitAll(null, one.isend(Buffer.of(new int[] {5}), 0, 7), receive);
            assertNull(statuses[0]);
            assertEquals(Request.UNDEFINED, Request.waitAny());
        }
    }
}
