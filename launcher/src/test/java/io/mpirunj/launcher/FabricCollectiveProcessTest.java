package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.testapps.AlltoallCheck;
import io.mpirunj.testapps.StarBcastCheck;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The papers' fabric collectives as processes over TCP, every element checked: SEM all-to-all with 16 ranks on
 * {@code --fabric torus:4x4}, and paper 004's star-graph broadcast with six ranks on {@code --fabric star:3}.
 */
class FabricCollectiveProcessTest {

    static Stream<Arguments> fabricCollectives() {
        return Stream.of(
                Arguments.of("alltoall=sem", "16", "torus:4x4", AlltoallCheck.class, "passed alltoall"),
                Arguments.of("bcast=star", "6", "star:3", StarBcastCheck.class, "passed bcast on 6 ranks"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fabricCollectives")
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void runsAsProcessesOnItsFabric(String coll, String np, String fabric, Class<?> program, String passed) {
        LauncherRun run = LauncherRun.of("-np", np, "--fabric", fabric, "--coll", coll, program.getName());
        run.assertSucceededPrinting(passed);
        assertFalse(run.err().contains("instead"), "the fabric's schedule ran, no fallback\n" + run);
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void onAFabricThatDoesNotSuitItItFallsBackAndSaysSo() {
        // As processes with -v: rank 0 logs the fallback once at WARN; without -v the ranks log errors only, as the
        // launcher does. (With --threads the warning is once per launcher JVM and at the launcher's log level, which
        // other tests in this JVM may have set.)
        String warning = "bcast=star needs --fabric star:N with N! ranks; --fabric mesh:2x2 is not a star graph";
        LauncherRun verbose = LauncherRun.of("-np", "3", "-v", "--fabric", "mesh:2x2", "--coll", "bcast=star",
                StarBcastCheck.class.getName());
        verbose.assertSucceededPrinting("passed bcast on 3 ranks");
        assertEquals(1, verbose.err().lines().filter(l -> l.contains(warning)).count(), verbose::toString);
        LauncherRun quiet = LauncherRun.of("-np", "3", "--fabric", "mesh:2x2", "--coll", "bcast=star",
                StarBcastCheck.class.getName());
        quiet.assertSucceededPrinting("passed bcast on 3 ranks");
        assertFalse(quiet.err().contains(warning), quiet::toString);
    }

    /** Without any --fabric, an algorithm that runs only on one is refused before a rank starts (was a silent fallback). */
    @ParameterizedTest
    @ValueSource(strings = {"bcast=star", "multicast=opt-mesh", "bcast=opt-mesh"})
    void withoutAFabricAFabricAlgorithmIsBadInput(String coll) {
        for (String mode : new String[] {"--threads", "-v"}) {
            LauncherRun run = LauncherRun.of("-np", "3", mode, "--coll", coll, StarBcastCheck.class.getName());
            assertEquals(UsageException.EXIT_CODE, run.exitCode(), run::toString);
            assertEquals(1, run.errLines().size(), run::toString);
            assertTrue(run.err().startsWith("mpirun-j: --coll " + coll + " runs only on a fabric the job names: give "
                    + "--fabric"), run::toString);
            assertEquals("", run.out(), run::toString);
        }
        LauncherRun fromTheEnvironment = LauncherRun.of(java.util.Map.of("MPIRUNJ_COLL", coll), "-np", "3",
                StarBcastCheck.class.getName());
        assertEquals(UsageException.EXIT_CODE, fromTheEnvironment.exitCode(), fromTheEnvironment::toString);
        assertTrue(fromTheEnvironment.err().startsWith("mpirun-j: MPIRUNJ_COLL=" + coll + ": " + coll + " runs only on "
                + "a fabric the job names"), fromTheEnvironment::toString);
    }

    /** The fabric may come from the ranks' environment too (-x MPIRUNJ_FABRIC=...), as the ranks read it. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aFabricFromTheRanksEnvironmentIsOneToo() {
        LauncherRun run = LauncherRun.of("-np", "4", "-x", "MPIRUNJ_FABRIC=mesh:2x2", "--coll", "bcast=opt-mesh",
                StarBcastCheck.class.getName());
        run.assertSucceededPrinting("passed bcast on 4 ranks");
    }
}
