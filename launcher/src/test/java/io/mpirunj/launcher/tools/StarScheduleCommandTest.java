package io.mpirunj.launcher.tools;

import static io.mpirunj.launcher.tools.ToolRun.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.fabric.topology.StarGraph;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code mpirun-j schedule --fabric star:N}: paper 004's broadcasts as JSON (no -np needed). */
class StarScheduleCommandTest {

    /** Figure 7: S_4 from dcba in 3 steps; every message's path is a walk over star links. */
    @Test
    void figure7AsJson() {
        ToolRun run = ToolRun.schedule(args("--op bcast --algo star --fabric star:4 --root dcba --json"));
        assertEquals(0, run.exitCode(), run::toString);
        Map<String, Object> o = MiniJson.object(run.out());
        assertEquals(3.0, o.get("steps"));
        assertEquals(24.0, o.get("ranks"));
        List<Object> nodes = (List<Object>) o.get("nodes");
        StarGraph star = new StarGraph(4);
        assertEquals(24, nodes.size());
        for (int id = 0; id < 24; id++) {
            assertEquals(star.label(id), nodes.get(id));
        }
        assertEquals("4321", nodes.get(((Double) o.get("root")).intValue())); // dcba
        List<Map<String, Object>> messages = messages(o);
        assertEquals(23, messages.size());
        boolean[] informed = new boolean[24];
        informed[star.node("4321")] = true;
        for (Map<String, Object> m : messages) {
            int src = ((Double) m.get("src")).intValue();
            int dst = ((Double) m.get("dst")).intValue();
            List<Object> path = (List<Object>) m.get("path");
            assertEquals(src, ((Double) path.get(0)).intValue());
            assertEquals(dst, ((Double) path.get(path.size() - 1)).intValue());
            for (int i = 0; i + 1 < path.size(); i++) {
                assertTrue(star.direction(((Double) path.get(i)).intValue(), ((Double) path.get(i + 1)).intValue()) >= 0);
            }
            assertTrue(!informed[dst], "informed twice: " + dst);
            informed[dst] = true;
            double step = (Double) m.get("step");
            assertTrue(step >= 1 && step <= 3);
        }
        for (boolean b : informed) {
            assertTrue(b);
        }
        // The same root by its digits, and the default all-port cost model: contention-free within steps.
        ToolRun digits = ToolRun.schedule(args("--algo star --fabric star:4 --root 4321 --json"));
        assertEquals(o.get("messages"), MiniJson.object(digits.out()).get("messages"));
    }

    @ParameterizedTest(name = "{0} on star:{1}: {2} steps")
    @CsvSource({"akers-star, 4, 3", "akers-star, 5, 4", "star, 5, 4", "star-match, 5, 3", "star, 3, 2"})
    void stepCounts(String algorithm, int n, int steps) {
        ToolRun run = ToolRun.schedule(args("--algo " + algorithm + " --fabric star:" + n + " --json"));
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals((double) steps, MiniJson.object(run.out()).get("steps"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "--algo star -np 6                          | --algo star needs --fabric (a star graph fabric with one rank per node, e.g. --fabric star:4)",
        "--algo star --fabric star:4 -np 5          | --algo star: star needs one rank per node of star:4: ranks=5 (expected: 24)",
        "--algo akers-star --fabric mesh:4x4 -np 16 | --algo akers-star needs a star graph fabric with one rank per node (got --fabric mesh:4x4)",
        "--algo star --fabric star:4 --root zzzz    | --root: bad star graph node 'zzzz'",
        "--algo star --fabric star:4 --root 99      | --root=99 outside 0..23 (the group has -np 24 ranks) and not a node address of star:4",
    })
    void rejects(String arguments, String expected) {
        ToolRun run = ToolRun.schedule(args(arguments));
        assertEquals(2, run.exitCode(), run::toString);
        assertTrue(run.err().contains(expected), run::toString);
        assertEquals(1, run.err().strip().lines().count(), run::toString);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> messages(Map<String, Object> o) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Object m : (List<Object>) o.get("messages")) {
            out.add((Map<String, Object>) m);
        }
        return out;
    }
}
