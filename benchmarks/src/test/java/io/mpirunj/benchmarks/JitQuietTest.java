package io.mpirunj.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mpirunj.Buffer;
import io.mpirunj.Op;
import io.mpirunj.testing.LocalCluster;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.IntToLongFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What {@link JitQuiet} decides, made independent of how busy the machine is: a spent limit, a rank that is
 * busy by construction (a step of 0 ms, whose CPU allowance is 0, so any step counts as busy), and passes that
 * the test's own decisions ask for. Whether a real JVM goes quiet is not asserted: on a loaded machine it may not.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JitQuietTest {
    private static final int NP = 4;

    /** How {@link JitQuiet#settleSteps} ended on four thread ranks, checked to be the same on every rank. */
    private static JitQuiet.Settled settleOnFourRanks(IntToLongFunction stepMillis, IntToLongFunction limitMillis) {
        Set<JitQuiet.Settled> seen = ConcurrentHashMap.newKeySet();
        LocalCluster.run(NP, world -> {
            // one allreduce first (JitQuiet's vote), so that the first step's is not a cold one
            world.allreduce(Buffer.of(new int[2]), Buffer.of(new int[2]), Op.MAX);
            seen.add(JitQuiet.settleSteps(world, stepMillis.applyAsLong(world.rank()), 2,
                    limitMillis.applyAsLong(world.rank())));
        });
        assertEquals(1, seen.size(), "every rank ends the same way: " + seen);
        return seen.iterator().next();
    }

    @Test
    void aSpentLimitEndsTheWaitAfterOneStepOnEveryRank() {
        JitQuiet.Settled s = settleOnFourRanks(r -> 10, r -> 0);
        assertEquals(1, s.steps(), s::toString);
        assertEquals(true, s.limitReached(), s::toString);
    }

    @Test
    void oneRanksSpentLimitEndsEveryRanksWaitAtTheSameStep() {
        // ranks 1-3 would wait ten minutes; two quiet steps in a row cannot happen before the first step's vote
        JitQuiet.Settled s = settleOnFourRanks(r -> 10, r -> r == 0 ? 0 : 600_000);
        assertEquals(1, s.steps(), s::toString);
        assertEquals(true, s.limitReached(), s::toString);
    }

    @Test
    void oneBusyRankKeepsEveryRankWaitingUntilTheLimit() {
        // rank 0 is busy in every step (0 ms steps: any CPU time at all is its twentieth of a core), so no two
        // quiet steps ever come; only the limit can end the wait, and it ends it busy on every rank. (A JitQuiet
        // that ignored the busy rank would end after two steps, ~20 ms, unless the machine were slower than 2 s.)
        JitQuiet.Settled s = settleOnFourRanks(r -> r == 0 ? 0 : 10, r -> 2_000);
        assertEquals(true, s.limitReached(), s::toString);
        assertEquals(true, s.busy(), s::toString);
    }

    @Test
    void everyRankRunsAsManyPassesAsTheRankThatAsksForMost() {
        // rank r asks for another pass until it has run r + 1; rank 3's four passes are every rank's
        Map<Integer, Integer> passes = new ConcurrentHashMap<>();
        Map<Integer, Integer> decisions = new ConcurrentHashMap<>();
        LocalCluster.run(NP, world -> {
            int me = world.rank();
            JitQuiet.untilQuiet(world, () -> passes.merge(me, 1, Integer::sum), compiled -> {
                decisions.merge(me, 1, Integer::sum);
                return passes.get(me) < me + 1;
            });
        });
        assertEquals(Map.of(0, NP, 1, NP, 2, NP, 3, NP), passes);
        assertEquals(passes, decisions, "one decision per pass");
    }
}
