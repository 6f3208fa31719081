package io.mpirunj.runtime.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.runtime.transport.TransportProgress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A waiter that drives its transport polls (never blocks in the kernel) while I/O keeps arriving, and
 * blocks only once none has come for the policy's poll budget: a large message read piece by piece must
 * not cost a kernel wake-up per piece. Time here is a fake clock that each turn of the transport moves on.
 */
class DrivingWaitTest {
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void theWaiterPollsWhileIoArrivesAndBlocksOnlyAfterTheBudgetWithout() {
        AtomicLong now = new AtomicLong();
        WaitPolicy base = WaitPolicy.of(now::get, 0, 2, 2); // cores to spare: the waiter polls first
        long budget = base.drivePollNanos();
        assertTrue(budget > 0, "cores to spare: the waiter polls before it blocks");
        long turnNanos = budget / 4;
        int busyTurns = 10; // each handles I/O, and together they last far longer than the budget
        FakeTransport io = new FakeTransport(now, turnNanos, busyTurns);
        RequestImpl req = new RequestImpl(base.drivingProgressOf(null, io));
        io.request = req;

        req.await();

        int idleTurnsBeforeBlocking = (int) ((budget - 1) / turnNanos); // idle 1/4, 2/4, 3/4 of the budget
        assertEquals(busyTurns + idleTurnsBeforeBlocking + 1, io.blocks.size(), "turns: " + io.blocks);
        for (int i = 0; i < io.blocks.size() - 1; i++) {
            assertEquals(0L, io.blocks.get(i), "turn " + i + " blocked: " + io.blocks);
        }
        assertTrue(io.blocks.get(io.blocks.size() - 1) > 0, "the last turn blocks: " + io.blocks);
    }

    /** Handles I/O in its first {@code busyTurns} turns; completes the request when a turn may block. */
    private static final class FakeTransport implements TransportProgress {
        final List<Long> blocks = new ArrayList<>();
        private final AtomicLong now;
        private final long turnNanos;
        private final int busyTurns;
        RequestImpl request;

        FakeTransport(AtomicLong now, long turnNanos, int busyTurns) {
            this.now = now;
            this.turnNanos = turnNanos;
            this.busyTurns = busyTurns;
        }

        @Override
        public boolean enterDriving() {
            return true;
        }

        @Override
        public int driveOnce(long blockNanos, BooleanSupplier stop) {
            blocks.add(blockNanos);
            now.addAndGet(turnNanos);
            if (blockNanos > 0) {
                request.complete(null); // what the kernel would have woken the waiter for
                return 0;
            }
            return blocks.size() <= busyTurns ? 1 : 0;
        }

        @Override
        public void exitDriving() {
        }

        @Override
        public void wakeup() {
        }

        @Override
        public void beginPassiveWait() {
        }

        @Override
        public void endPassiveWait() {
        }
    }
}
