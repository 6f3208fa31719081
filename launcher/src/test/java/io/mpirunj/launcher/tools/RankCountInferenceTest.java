package io.mpirunj.launcher.tools;

import static io.mpirunj.launcher.tools.ToolRun.args;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code schedule} and {@code simulate} without {@code -np}: the placement list or the fabric says how many ranks. */
class RankCountInferenceTest {

    private static final String SIX_BY_SIX = "--op multicast --algo opt-mesh --fabric mesh:6x6 "
            + "--placement 3/2,1/5,2/1,3/4,4/3,4/4,5/1,5/4 --model hold=20,end=55 --json";

    @Test
    void theExplicitPlacementListGivesTheRankCount() {
        ToolRun inferred = ToolRun.schedule(args(SIX_BY_SIX));
        assertEquals(0, inferred.exitCode(), inferred::toString);
        assertEquals(8.0, MiniJson.object(inferred.out()).get("ranks"));
        assertEquals(130.0, MiniJson.object(inferred.out()).get("completion"));
        ToolRun given = ToolRun.schedule(args(SIX_BY_SIX + " -np 8"));
        assertEquals(given.out(), inferred.out(), "the same schedule as with -np 8");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "schedule | --fabric star:4                 | bcast over 24 ranks, root 0, 1 byte, on star:4, placement identity",
        "simulate | --fabric star:4                 | bcast over 24 ranks, root 0, 1 byte, on star:4, placement identity",
        "simulate | --fabric torus:4x4              | bcast over 16 ranks, root 0, 1 byte, on torus:4x4, placement identity",
        "simulate | --fabric mesh:3x5               | bcast over 15 ranks, root 0, 1 byte, on mesh:3x5, placement identity",
        "simulate | --fabric hypercube:3 --op multicast | multicast over 8 ranks, root 0, 1 byte, on hypercube:3, placement identity",
        "simulate | --fabric mesh:4x4 --placement 0/0,3/3,1/2 | bcast over 3 ranks, root 0, 1 byte, on mesh:4x4, placement 0/0,3/3,1/2",
    })
    void aFabricWithoutNpPutsARankOnEveryNode(String command, String options, String header) {
        String line = "--algo opt-tree --model hold=20,end=55 " + options.trim();
        ToolRun run = command.trim().equals("schedule") ? ToolRun.schedule(args(line)) : ToolRun.simulate(args(line));
        assertEquals(0, run.exitCode(), run::toString);
        String expected = (command.trim().equals("schedule") ? "opt-tree: " : "") + header.trim();
        assertEquals(expected, run.out().lines().findFirst().orElse(""), run::toString);
    }

    @Test
    void npThatDisagreesWithThePlacementListIsOneClearLine() {
        ToolRun schedule = ToolRun.schedule(args(SIX_BY_SIX + " -np 7"));
        BadInputTest.assertOneLineUsageError(schedule, "mpirun-j schedule: ",
                "-np 7 but --placement lists 8 nodes (give one address per rank, or leave -np out)");
        ToolRun simulate = ToolRun.simulate(args("--op multicast -np 9 --fabric mesh:6x6 --placement 3/2,1/5"));
        BadInputTest.assertOneLineUsageError(simulate, "mpirun-j simulate: ",
                "-np 9 but --placement lists 2 nodes (give one address per rank, or leave -np out)");
    }

    @Test
    void npThatDoesNotFitTheFabricIsOneClearLine() {
        ToolRun run = ToolRun.simulate(args("-np 25 --fabric star:4"));
        BadInputTest.assertOneLineUsageError(run, "mpirun-j simulate: ",
                "--placement identity (the default): cannot place 25 ranks on star:4 (24 nodes)");
    }

    @Test
    void withoutFabricNpIsStillRequired() {
        ToolRun run = ToolRun.simulate(args("--model hold=20,end=55"));
        BadInputTest.assertOneLineUsageError(run, "mpirun-j simulate: ",
                "missing -np K (the number of ranks, source included; with --fabric it defaults to every node)");
    }
}
