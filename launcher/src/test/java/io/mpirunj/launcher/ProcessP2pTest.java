package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.testing.P2pScenarios;
import io.mpirunj.testing.ScenarioMain;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The point-to-point scenarios the runtime runs with ranks as threads, here with one JVM per rank
 * over Netty TCP, through the launcher: np 2-4 (16 MiB at np 2-3). Every scenario of a rank count runs
 * in one job, one after the other (ScenarioMain), so a rank count costs one JVM start-up per rank.
 */
class ProcessP2pTest {
    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {2, 3, 4})
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void everyScenarioPassesAsProcesses(int np) {
        List<String> names = new ArrayList<>(P2pScenarios.names());
        if (np > 3) {
            names.remove("sixteenMiB");
        }
        List<String> args = new ArrayList<>(List.of("-np", Integer.toString(np), ScenarioMain.class.getName()));
        args.addAll(names);
        LauncherRun run = LauncherRun.of(args.toArray(String[]::new));
        assertEquals(0, run.exitCode(), run::toString);
        for (String name : names) {
            for (int r = 0; r < np; r++) {
                String line = "rank " + r + " passed " + name;
                assertTrue(run.outLines().contains(line), line + "\n" + run);
            }
        }
    }
}
