package io.mpirunj.launcher.tools;

import static io.mpirunj.launcher.tools.ToolRun.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code mpirun-j simulate --hetero}: paper 003's prediction-error experiment from the command line. */
class HeteroSimulateTest {

    @Test
    @Timeout(120)
    void jsonHasOneResultPerAlgorithmAndSigma() throws Exception {
        ToolRun run = ToolRun.simulate(args("--op bcast --algo ecef,fef,ttcc --hetero paper --error-sigma 0:0.4:0.2 "
                + "--reps 3 -np 12 --seed 7 --json"));
        assertEquals(0, run.exitCode(), run::toString);
        JsonNode results = new ObjectMapper().readTree(run.out()).get("results");
        assertEquals(9, results.size());
        JsonNode first = results.get(0);
        assertEquals("ecef", first.get("algorithm").asText());
        assertEquals(0.0, first.get("sigma").asDouble());
        assertEquals(0.0, first.get("delayRatio").asDouble());
        assertTrue(first.get("meanCompletion").asDouble() > 0);
        assertEquals(0.4, results.get(8).get("sigma").asDouble());
        assertEquals("ttcc", results.get(8).get("algorithm").asText());
        // the same seed gives the same output
        assertEquals(run.out(), ToolRun.simulate(args("--op bcast --algo ecef,fef,ttcc --hetero paper --error-sigma "
                + "0:0.4:0.2 --reps 3 -np 12 --seed 7 --json")).out());
    }

    @Test
    @Timeout(120)
    void tableHasARowPerSigma() {
        ToolRun run = ToolRun.simulate(args("--hetero paper --error-sigma 0,0.3 --reps 2 -np 8"));
        assertEquals(0, run.exitCode(), run::toString);
        var lines = run.out().lines().toList();
        assertTrue(lines.get(0).startsWith("prediction-error experiment (paper 003): bcast, 8 nodes, root 0, 1000000 bytes"),
                lines.get(0));
        assertEquals("sigma", lines.get(3).trim().split(" +")[0]);
        assertEquals(6, lines.size(), run.out());
        assertTrue(lines.get(5).trim().startsWith("0.3 "), lines.get(5));
    }

    @Test
    void badInputIsOneLine() {
        String[][] cases = {
            {"--hetero paper -np 5 --model hold=1,end=2", "--model does not apply with --hetero"},
            {"--reps 3 -np 5", "--reps needs --hetero NET"},
            {"--hetero paper -np 5 --error-sigma 0:x:1", "--hetero / --error-sigma: sigma '0:x:1'"},
            {"--hetero paper --reps 1", "missing -np K"},
            {"--hetero paper -np 5 --algo ecf", "unknown multicast algorithm 'ecf'"},
            {"--hetero paper -np 5 --op multicast", "--op multicast with --hetero (expected: bcast)"},
            {"--hetero file:/nonexistent.json -np 5", "pairs file /nonexistent.json: no such file"},
            // named as the options are (were the experiment's fields: alphaFraction=-1.0, messageBytes=-5)
            {"--hetero paper -np 5 --alpha -1", "--alpha -1.0 (expected: a share of the mean pair cost, >= 0)"},
            {"--hetero paper -np 5 --size -5", "--size -5 (expected: a number of bytes from 0 to 4611686018427387903)"},
            {"--hetero paper -np 5 --size 9223372036854775807", "--size 9223372036854775807 (expected: a number of bytes"},
            {"--hetero paper -np 5 --reps 0", "--reps 0 (expected: >= 1)"},
            {"--hetero paper -np 5 --root 7", "--root 7 (expected: a node number 0..4)"},
        };
        for (String[] c : cases) {
            ToolRun run = ToolRun.simulate(args(c[0]));
            assertEquals(2, run.exitCode(), run::toString);
            assertTrue(run.err().contains(c[1]), c[0] + " -> " + run.err());
            assertEquals(1, run.err().lines().count(), run.err());
        }
    }
}
