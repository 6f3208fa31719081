package io.mpirunj.launcher;

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
        run.assertSucceededPrinting("passed bcast on 6 ranks");
        assertFalse(run.err().contains("instead"), "the star schedule ran, no fallback\n" + run);
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void withoutAStarFabricItFallsBackAndSaysSo() {
        // As processes: each rank JVM logs the fallback once at WARN. (With --threads the warning is once
        // per launcher JVM and at the launcher's log level, which other tests in this JVM may have set.)
        LauncherRun run = LauncherRun.of("-np", "3", "--coll", "bcast=star", StarBcastCheck.class.getName());
        run.assertSucceededPrinting("passed bcast on 3 ranks");
        assertTrue(run.err().contains("bcast=star needs --fabric star:N with N! ranks; the job has no --fabric"),
                run::toString);
    }
}
