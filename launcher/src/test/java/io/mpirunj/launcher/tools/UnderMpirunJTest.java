package io.mpirunj.launcher.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.launcher.MpirunJ;
import org.junit.jupiter.api.Test;

/** The tools as subcommands of {@code mpirun-j}, through the launcher's own command line. */
class UnderMpirunJTest {

    static ToolRun mpirunJ(String... args) {
        return ToolRun.of(MpirunJ.commandLine(), args);
    }

    @Test
    void scheduleRunsAsASubcommand() {
        ToolRun run = mpirunJ("schedule", "--algo", "opt-tree", "-np", "9", "--model", "hold=20,end=55", "--json");
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals(135.0, MiniJson.object(run.out()).get("completion"));
    }

    @Test
    void badInputIsOneLineUnderTheLaunchersName() {
        ToolRun run = mpirunJ("simulate", "-np", "8", "--root", "9");
        BadInputTest.assertOneLineUsageError(run, "mpirun-j simulate: ", "--root=9 outside 0..7");
        ToolRun parse = mpirunJ("simulate", "-np", "eight");
        assertEquals(Tools.USAGE, parse.exitCode(), parse::toString);
        assertEquals(1, parse.err().lines().count(), parse::toString);
        assertTrue(parse.err().startsWith("mpirun-j: "), parse::toString);
    }

    @Test
    void helpShowsTheFullCommandName() {
        ToolRun run = mpirunJ("papers", "--help");
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.out().startsWith("Usage: mpirun-j papers "), run.out());
    }
}
