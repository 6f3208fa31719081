package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.testapps.StarBcastCheck;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code mpirun-j --fabric star:3 --coll bcast=star}: six processes over TCP run paper 004's broadcast. */
class StarBcastProcessTest {

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void starBroadcastDeliversAsProcessesOnS3() {
        LauncherRun run = LauncherRun.of("-np", "6", "--fabric", "star:3", "--coll", "bcast=star",
                StarBcastCheck.class.getName());
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.outLines().contains("passed bcast on 6 ranks"), run::toString);
        assertFalse(run.err().contains("instead"), "the star schedule ran, no fallback\n" + run);
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void withoutAStarFabricItFallsBackAndSaysSoWhenVerbose() {
        // The warning is at WARN level: the launcher shows it with -v (its default level is error).
        LauncherRun run = LauncherRun.of("-v", "--threads", "-np", "5", "--coll", "bcast=star",
                StarBcastCheck.class.getName());
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.outLines().contains("passed bcast on 5 ranks"), run::toString);
        assertTrue(run.err().contains("bcast=star needs --fabric star:N with N! ranks; the job has no --fabric"),
                run::toString);
    }
}
