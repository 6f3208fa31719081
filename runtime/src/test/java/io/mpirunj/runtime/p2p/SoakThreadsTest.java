package io.mpirunj.runtime.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.testing.LocalCluster;
import io.mpirunj.testing.Soak;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The random point-to-point soak with ranks as threads: nothing lost, duplicated, corrupted or
 * reordered (Soak checks every message against the plan). A second run with a small credit makes
 * most large eager-sized messages fall back to rendezvous mid-stream.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SoakThreadsTest {
    private static final int NP = 4;
    private static final int PER_RANK = 2_500;

    @Test
    void soakAsThreads() {
        soak(RuntimeConfig.defaults(), 7);
    }

    @Test
    void soakAsThreadsWithScarceCredit() {
        soak(RuntimeConfig.defaults().withEagerCredit(200 * 1024), 8);
    }

    private static void soak(RuntimeConfig config, long seed) {
        AtomicLong sent = new AtomicLong();
        AtomicLong received = new AtomicLong();
        AtomicLong straddlers = new AtomicLong();
        LocalCluster.run(NP, config, Duration.ofSeconds(110), world -> {
            Soak.Result r = Soak.run(world, seed, PER_RANK, config.eagerLimitBytes());
            sent.addAndGet(r.sent());
            received.addAndGet(r.received());
            straddlers.addAndGet(r.eagerLimitStraddlers());
        });
        assertEquals(NP * PER_RANK, sent.get());
        assertEquals(NP * PER_RANK, received.get());
        assertTrue(straddlers.get() > NP * PER_RANK / 10, "messages near the eager limit: " + straddlers);
    }
}
