package io.mpirunj.runtime.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link RequestImpl#beforeCompletion}: what --coll-report counts of a non-blocking call is counted before its waiter goes on. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BeforeCompletionTest {

    private static RequestImpl request() {
        return new RequestImpl(WaitPolicy.standalone());
    }

    @Test
    void theHookRunsOnceBeforeTheRequestIsSeenDone() {
        RequestImpl r = request();
        List<String> seen = new ArrayList<>();
        r.beforeCompletion(e -> seen.add("first: done " + r.test() + ", error " + e));
        r.beforeCompletion(e -> seen.add("second: done " + r.test()));
        r.onCompletion(() -> seen.add("listener: done " + r.test()));
        assertTrue(r.complete(new Status(0, 0, 0, 1)));
        assertFalse(r.complete(new Status(0, 0, 0, 1)));
        assertEquals(List.of("first: done false, error null", "second: done false", "listener: done true"), seen);
    }

    @Test
    void aFailedRequestHandsTheHookItsErrorAndALateHookRunsAtOnce() {
        RequestImpl r = request();
        RuntimeException[] got = new RuntimeException[1];
        r.beforeCompletion(e -> got[0] = e);
        IllegalStateException failure = new IllegalStateException("peer failed");
        assertTrue(r.fail(failure));
        assertSame(failure, got[0]);
        RuntimeException[] late = {new RuntimeException("not called")};
        r.beforeCompletion(e -> late[0] = e);
        assertSame(failure, late[0]);
        RequestImpl ok = request();
        ok.complete(new Status(0, 0, 0, 1));
        late[0] = new RuntimeException("not called");
        ok.beforeCompletion(e -> late[0] = e);
        assertNull(late[0]);
    }

    /** Completed on another thread while a waiter waits: the waiter sees the hook's effect once it returns. */
    @Test
    void aWaiterSeesWhatTheHookDid() throws Exception {
        for (int i = 0; i < 200; i++) {
            RequestImpl r = request();
            int[] counted = new int[1];
            r.beforeCompletion(e -> counted[0]++);
            Thread completer = new Thread(() -> r.complete(new Status(0, 0, 0, 1)));
            completer.start();
            r.await();
            assertEquals(1, counted[0], "round " + i);
            completer.join();
        }
    }
}
