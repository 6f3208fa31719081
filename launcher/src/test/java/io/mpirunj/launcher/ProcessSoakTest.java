package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.testing.SoakMain;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The random point-to-point soak (io.mpirunj.testing.Soak) with one JVM per rank over Netty TCP:
 * every message arrives once, intact and in order, eager and rendezvous mixed.
 */
class ProcessSoakTest {
    private static final int NP = 3;
    private static final int PER_RANK = 1_500;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void soakAsProcesses() {
        LauncherRun run = LauncherRun.of("-np", Integer.toString(NP), SoakMain.class.getName(),
                Integer.toString(PER_RANK), "11");
        assertEquals(0, run.exitCode(), run::toString);
        for (int r = 0; r < NP; r++) {
            String line = "rank " + r + " soak passed: sent " + PER_RANK + ",";
            assertTrue(run.outLines().stream().anyMatch(l -> l.startsWith(line)), line + "\n" + run);
        }
    }
}
