package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.testapps.MidwayVictim;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kill -9 of a rank process in the middle of a collective (it made its first sends and receives of
 * the schedule and holds back the rest; every other rank is inside the same call), blocking and
 * non-blocking: the job fails with the victim's signal, every survivor either finished its part or
 * failed with {@code RankFailedException} naming the victim (at least one did), and no rank survives.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@ExtendWith(SurvivorsEndByThemselves.class)
class CollectiveMidwayFailureTest {
    private static final int NP = 4;
    private static final int VICTIM = 1;
    /** Sends and receives the victim makes before it holds back: with 4 ranks, inside either schedule. */
    private static final int KEEP = 3;

    static Stream<Arguments> cases() {
        return Stream.of("allreduce", "alltoall")
                .flatMap(op -> Stream.of("blocking", "non-blocking").map(mode -> Arguments.of(op, mode)));
    }

    @ParameterizedTest(name = "kill -9 midway through {0}, {1}")
    @MethodSource("cases")
    void killingARankMidwayFailsTheOthers(String op, String mode) throws Exception {
        LauncherRun.Running job = LauncherRun.start("-np", Integer.toString(NP), MidwayVictim.class.getName(), op, mode,
                Integer.toString(VICTIM), Integer.toString(KEEP));
        RankKill kill = RankKill.during(job, NP, VICTIM, "victim midway", op);
        LauncherRun run = kill.run();
        int failed = 0;
        for (int r = 0; r < NP; r++) {
            if (r == VICTIM) {
                continue;
            }
            String caught = "rank " + r + " caught RankFailedException naming rank " + VICTIM + ": ";
            boolean didFail = run.out().contains(caught);
            assertTrue(didFail || run.out().contains("rank " + r + " completed " + op), caught + "\n" + run);
            failed += didFail ? 1 : 0;
        }
        assertTrue(failed > 0, "no survivor noticed the victim's death\n" + run);
        assertFalse(Pattern.compile("caught (?!RankFailedException)").matcher(run.out()).find(), run::toString);
        kill.assertNoRankSurvived();
    }
}
