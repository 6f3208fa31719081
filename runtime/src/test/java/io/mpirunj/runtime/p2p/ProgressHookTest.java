package io.mpirunj.runtime.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.local.LocalJob;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A thread waiting on an engine's request runs the engine's progress hooks, so work such as a
 * non-blocking collective's next step advances while its rank waits; here the hook itself completes
 * the awaited receive (by sending its message) on its third run.
 */
class ProgressHookTest {
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aWaiterRunsTheProgressHooksUntilTheyCompleteItsRequest() {
        try (LocalJob job = new LocalJob(2, RuntimeConfig.defaults(), (r, c, m) -> { })) {
            P2pEngine engine = job.context(0).engine();
            AtomicInteger runs = new AtomicInteger();
            ProgressHook hook = () -> {
                if (runs.incrementAndGet() == 3) {
                    job.context(1).world().isend(Buffer.of(new int[] {42}), 0, 9);
                    return true;
                }
                return false;
            };
            engine.addProgressHook(hook);
            int[] got = new int[1];
            Request r = job.context(0).world().irecv(Buffer.of(got), 1, 9);
            assertFalse(r.test());
            r.await();
            assertEquals(42, got[0]);
            assertTrue(runs.get() >= 3);
            engine.removeProgressHook(hook);
            assertFalse(engine.progress());
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void waitAnyRunsThemToo() {
        try (LocalJob job = new LocalJob(2, RuntimeConfig.defaults(), (r, c, m) -> { })) {
            AtomicReference<Boolean> sent = new AtomicReference<>(false);
            job.context(0).engine().addProgressHook(() -> {
                if (sent.compareAndSet(false, true)) {
                    job.context(1).world().isend(Buffer.of(new int[] {7}), 0, 3);
                    return true;
                }
                return false;
            });
            int[] got = new int[1];
            Request r = job.context(0).world().irecv(Buffer.of(got), 1, 3);
            assertEquals(0, Request.waitAny(r));
            assertEquals(7, got[0]);
        }
    }
}
