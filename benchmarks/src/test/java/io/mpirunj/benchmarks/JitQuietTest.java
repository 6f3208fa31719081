package io.mpirunj.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.testing.LocalCluster;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JitQuietTest {
    /** How {@link JitQuiet#settleSteps} ended on four thread ranks, checked to be the same on every rank. */
    private static JitQuiet.Settled settleOnFourRanks(long limitMillis) {
        Set<JitQuiet.Settled> seen = ConcurrentHashMap.newKeySet();
        LocalCluster.run(4, world -> seen.add(JitQuiet.settleSteps(world, 10, 2, limitMillis)));
        assertEquals(1, seen.size(), "every rank ends the same way: " + seen);
        return seen.iterator().next();
    }

    @Test
    void aSpentLimitEndsTheWaitAfterOneStepOnEveryRank() {
        JitQuiet.Settled s = settleOnFourRanks(0);
        assertEquals(1, s.steps());
        assertTrue(s.limitReached());
    }

    @Test
    void theWaitEndsQuietOrOnItsLimitTheSameOnEveryRank() {
        JitQuiet.Settled s = settleOnFourRanks(30_000);
        // quiet for two steps in a row (the usual end), or the limit reached on a busy machine
        assertTrue(s.limitReached() || s.steps() >= 2 && !s.busy(), s.toString());
    }
}
