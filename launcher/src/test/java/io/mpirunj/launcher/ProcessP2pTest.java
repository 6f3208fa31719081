package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.testing.P2pScenarios;
import io.mpirunj.testing.ScenarioMain;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The point-to-point scenarios the runtime runs with ranks as threads, here with one JVM per rank
 * over Netty TCP, through the launcher: np 2-4.
 */
class ProcessP2pTest {
    static Stream<Arguments> cases() {
        return P2pScenarios.names().stream()
                .flatMap(name -> IntStream.rangeClosed(2, name.equals("sixteenMiB") ? 3 : 4)
                        .mapToObj(np -> Arguments.of(name, np)));
    }

    @ParameterizedTest(name = "{0} np={1}")
    @MethodSource("cases")
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void scenarioPassesAsProcesses(String name, int np) {
        LauncherRun run = LauncherRun.of("-np", Integer.toString(np), ScenarioMain.class.getName(), name);
        assertEquals(0, run.exitCode(), run::toString);
        for (int r = 0; r < np; r++) {
            String line = "rank " + r + " passed " + name;
            assertTrue(run.outLines().contains(line), line + "\n" + run);
        }
    }
}
