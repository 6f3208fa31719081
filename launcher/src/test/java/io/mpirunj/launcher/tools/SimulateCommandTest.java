package io.mpirunj.launcher.tools;

import static io.mpirunj.launcher.tools.ToolRun.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.collectives.multicast.MulticastAlgorithms;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code mpirun-j simulate}: the papers' reference completion times, fastest first. */
class SimulateCommandTest {

    @Test
    void sevenNodesOptTree80BinomialNinetyByEvents() {
        ToolRun run = ToolRun.simulate(args("--op bcast --algo all -np 7 --model hold=10,end=40"));
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals("", run.err());
        List<String> lines = run.out().lines().toList();
        assertEquals("bcast over 7 ranks, root 0, 1 byte", lines.get(0));
        assertTrue(lines.get(1).startsWith("evaluation: event (virtual time"), lines.get(1));
        assertEquals(" #  algorithm           completion (event)  messages", lines.get(2));
        assertEquals(" 1  opt-tree                            80         6", lines.get(3));
        Map<String, Double> times = completions(run.out());
        assertEquals(80.0, times.get("opt-tree"));
        assertEquals(90.0, times.get("binomial"));
        assertEquals(MulticastAlgorithms.names().size(), times.size(), "every algorithm, once");
        assertSorted(times);
    }

    @Test
    void sevenNodesBinomialTakesThreeRoundsWhenCountedInRounds() {
        ToolRun run = ToolRun.simulate(args("--op bcast --algo all -np 7 --model hold=10,end=40 --eval rounds"));
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.out().contains("evaluation: rounds (the papers' step counting"), run.out());
        assertTrue(run.out().contains("completion (rounds)"), run.out());
        Map<String, Double> times = completions(run.out());
        assertEquals(120.0, times.get("binomial"));
        assertSorted(times);
    }

    @Test
    void fibonacciBeatsBinarySplitUnderLogP() {
        ToolRun fib = ToolRun.simulate(args("--op multicast --algo fibonacci -np 8 --model logp:L=6,o=2,g=4"));
        assertEquals(0, fib.exitCode(), fib::toString);
        assertEquals(Map.of("fibonacci", 24.0), completions(fib.out()));
        ToolRun split = ToolRun.simulate(args("--op multicast --algo binary-split -np 8 --model logp:L=6,o=2,g=4"));
        assertEquals(Map.of("binary-split", 30.0), completions(split.out()));
    }

    @Test
    void jsonIsAnArrayFastestFirst() {
        ToolRun run = ToolRun.simulate(args("--op multicast --algo binary-split,fibonacci -np 8 "
                + "--model logp:L=6,o=2,g=4 --json"));
        assertEquals(0, run.exitCode(), run::toString);
        String json = run.out().trim();
        assertTrue(json.startsWith("[{") && json.endsWith("}]"), json);
        assertEquals("[{\"op\":\"multicast\",\"algorithm\":\"fibonacci\",\"ranks\":8,\"root\":0,\"bytes\":1,"
                + "\"model\":\"logp:L=6,o=2,g=4\",\"evaluation\":\"event\",\"completion\":24,\"messageCount\":7},"
                + "{\"op\":\"multicast\",\"algorithm\":\"binary-split\",\"ranks\":8,\"root\":0,\"bytes\":1,"
                + "\"model\":\"logp:L=6,o=2,g=4\",\"evaluation\":\"event\",\"completion\":30,\"messageCount\":7}]",
                json);
        assertEquals(2, MiniJson.array(json).size());
    }

    @Test
    void onTheMeshFabricOptMeshIsContentionFreeAndRanked() {
        ToolRun run = ToolRun.simulate(args("--op multicast -np 8 --fabric mesh:6x6 "
                + "--placement 3/2,1/5,2/1,3/4,4/3,4/4,5/1,5/4 --model hold=20,end=55 --json"));
        assertEquals(0, run.exitCode(), run::toString);
        List<Object> rows = MiniJson.array(run.out());
        assertEquals(MulticastAlgorithms.names().size() + 2, rows.size(), "opt-mesh and u-mesh join on a mesh");
        Map<String, Map<String, Object>> byName = new LinkedHashMap<>();
        for (Object r : rows) {
            @SuppressWarnings("unchecked")
            Map<String, Object> m = (Map<String, Object>) r;
            byName.put((String) m.get("algorithm"), m);
        }
        assertEquals(130.0, byName.get("opt-mesh").get("completion"));
        assertEquals(0.0, byName.get("opt-mesh").get("contentionEvents"));
        assertEquals(165.0, byName.get("u-mesh").get("completion"));
        assertEquals("opt-mesh", ((Map<?, ?>) rows.get(0)).get("algorithm"), "fastest first, table order on ties");

        ToolRun table = ToolRun.simulate(args("--op multicast -np 8 --fabric mesh:6x6 "
                + "--placement 3/2,1/5,2/1,3/4,4/3,4/4,5/1,5/4 --model hold=20,end=55"));
        assertTrue(table.out().contains(" #  algorithm           completion (event)  messages  contention\n"
                + " 1  opt-mesh                           130         7           0\n"), table.out());
    }

    @Test
    void onANonMeshFabricAllLeavesTheMeshAlgorithmsOut() {
        ToolRun run = ToolRun.simulate(args("-np 16 --fabric star:4 --ports all-port --model hold=20,end=55"));
        assertEquals(0, run.exitCode(), run::toString);
        assertFalse(completions(run.out()).containsKey("opt-mesh"));
        assertTrue(run.out().contains("star:4 hold=20,end=55 all-port"), run.out());
        assertTrue(run.out().endsWith("(opt-mesh, u-mesh need a mesh --fabric)\n"), run.out());
    }

    @Test
    void listAlgorithmsNeedsNothingElse() {
        ToolRun run = ToolRun.simulate("--list-algorithms");
        assertEquals(0, run.exitCode(), run::toString);
        for (String name : MulticastAlgorithms.names()) {
            assertTrue(run.out().contains("\n" + name + " ") || run.out().startsWith(name + " "), name);
        }
        assertTrue(run.out().contains("opt-mesh "), run.out());
    }

    @Test
    void helpListsTheAlgorithms() {
        ToolRun run = ToolRun.simulate("--help");
        assertEquals(0, run.exitCode());
        assertTrue(run.out().replaceAll("\\s+", " ").contains("fef, ecef, ttcc, opt-mesh, u-mesh"), run.out());
        assertTrue(run.out().lines().allMatch(l -> l.length() < 80), run.out());
    }

    /** algorithm -> completion from the table, in table order. */
    static Map<String, Double> completions(String table) {
        Map<String, Double> times = new LinkedHashMap<>();
        for (String line : table.lines().toList()) {
            String[] cells = line.trim().split(" +");
            if (cells.length >= 4 && cells[0].matches("[0-9]+")) {
                times.put(cells[1], Double.parseDouble(cells[2]));
            }
        }
        return times;
    }

    static void assertSorted(Map<String, Double> times) {
        List<Double> values = new ArrayList<>(times.values());
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        assertEquals(sorted, values, "fastest first");
    }

    /** simulate --schedule: a schedule written by schedule --json simulates as built; a broken one is one line. */
    @org.junit.jupiter.api.Test
    void simulatesAScheduleFileAndRefusesABrokenOneInOneLine(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        ToolRun written = ToolRun.schedule(ToolRun.args("--algo opt-tree -np 9 --model hold=20,end=55 --json"));
        org.junit.jupiter.api.Assertions.assertEquals(0, written.exitCode(), written::toString);
        java.nio.file.Path file = dir.resolve("opt.json");
        java.nio.file.Files.writeString(file, written.out());
        ToolRun fromFile = ToolRun.simulate(ToolRun.args("--schedule " + file + " --model hold=20,end=55 --json"));
        ToolRun built = ToolRun.simulate(ToolRun.args("--algo opt-tree -np 9 --model hold=20,end=55 --json"));
        org.junit.jupiter.api.Assertions.assertEquals(0, fromFile.exitCode(), fromFile::toString);
        org.junit.jupiter.api.Assertions.assertEquals(built.out(), fromFile.out());
        org.junit.jupiter.api.Assertions.assertTrue(fromFile.out().contains("\"completion\":135"), fromFile.out());

        // A receive with no sender: rank 6's receive from 0 stays, but rank 0 no longer sends to 6.
        com.fasterxml.jackson.databind.node.ObjectNode tree = (com.fasterxml.jackson.databind.node.ObjectNode)
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(written.out());
        com.fasterxml.jackson.databind.node.ArrayNode root = (com.fasterxml.jackson.databind.node.ArrayNode)
                tree.get("programs").get(0);
        root.remove(0);
        java.nio.file.Files.writeString(file, tree.toString());
        ToolRun refused = ToolRun.simulate(ToolRun.args("--schedule " + file + " --model hold=20,end=55"));
        org.junit.jupiter.api.Assertions.assertEquals(2, refused.exitCode(), refused::toString);
        org.junit.jupiter.api.Assertions.assertEquals(1, refused.err().lines().count(), refused.err());
        org.junit.jupiter.api.Assertions.assertTrue(refused.err().contains("invalid schedule: unmatched receive: rank "),
                refused.err());
        org.junit.jupiter.api.Assertions.assertTrue(refused.err().contains(" #0 "), refused.err());
    }
}
