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
        Map<String, Object> o = ToolRun.scheduleJson("--op bcast --algo star --fabric star:4 --root dcba --json");
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
        Map<String, Object> o = ToolRun.scheduleJson("--algo " + algorithm + " --fabric star:" + n + " --json");
        assertEquals((double) steps, o.get("steps"));
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
