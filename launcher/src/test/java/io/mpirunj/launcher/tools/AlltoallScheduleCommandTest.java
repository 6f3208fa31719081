package io.mpirunj.launcher.tools;

import static io.mpirunj.launcher.tools.ToolRun.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code mpirun-j schedule --op alltoall} on a torus: the JSON carries every block of every message. */
@Timeout(300)
class AlltoallScheduleCommandTest {

    @Test
    @SuppressWarnings("unchecked")
    void semOnTheEightByEightTorusAsJsonDeliversEveryBlock() {
        Map<String, Object> o = ToolRun.scheduleJson("--op alltoall --algo sem --fabric torus:8x8 --json");
        assertEquals("sem", o.get("algorithm"));
        assertEquals(64.0, o.get("ranks"));
        assertEquals(7.0, o.get("steps"));
        List<Map<String, Object>> messages = (List<Map<String, Object>>) o.get("messages");
        Set<Long> delivered = new HashSet<>();
        long transmittedInStep7 = 0;
        for (Map<String, Object> m : messages) {
            int src = ((Double) m.get("src")).intValue();
            int dst = ((Double) m.get("dst")).intValue();
            List<Double> path = (List<Double>) m.get("path");
            assertEquals(src, path.get(0).intValue());
            assertEquals(dst, path.get(path.size() - 1).intValue());
            for (List<Double> b : (List<List<Double>>) m.get("blocks")) {
                if (b.get(1).intValue() == dst) {
                    assertTrue(delivered.add(b.get(0).longValue() * 64 + dst), "delivered twice: " + b);
                }
            }
            if (((Double) m.get("step")).intValue() == 7) {
                transmittedInStep7 = Math.max(transmittedInStep7, ((List<?>) m.get("blocks")).size());
            }
        }
        assertEquals(64 * 63, delivered.size()); // every (o, d), o != d, arrives at d once
        assertEquals(63, transmittedInStep7); // the merge: a slave's N² blocks, less its own
    }

    /** The export carries the programs, so it reads back (refused: "programs" must be an array: a user's trial). */
    @Test
    void theExportReadsBackVerifiedAndSimulated(@TempDir Path dir) throws Exception {
        ToolRun written = ToolRun.schedule(args("--op alltoall --algo sem --fabric torus:4x4 --json"));
        assertEquals(0, written.exitCode(), written::toString);
        Path file = Files.writeString(dir.resolve("sem.json"), written.out());
        ToolRun verified = ToolRun.schedule(args("--verify " + file));
        assertEquals(0, verified.exitCode(), verified::toString);
        assertTrue(verified.out().startsWith("ok: alltoall sem ranks=16 root=-1"), verified::toString);
        ToolRun simulated = ToolRun.simulate(args("--schedule " + file + " --fabric torus:4x4 --json"));
        assertEquals(0, simulated.exitCode(), simulated::toString);
        int messages = ((List<?>) MiniJson.object(written.out()).get("messages")).size();
        assertTrue(simulated.out().contains("\"algorithm\":\"sem\",\"ranks\":16,") && simulated.out().contains(
                "\"messageCount\":" + messages + ","), simulated::toString);
        // read back, it is an all-to-all on the torus its ranks fill, and written again byte for byte (it was taken
        // for a bcast from root 0: a new user's trial)
        ToolRun again = ToolRun.schedule(args("--from " + file + " --json"));
        assertEquals(0, again.exitCode(), again::toString);
        assertEquals(written.out(), again.out());
        ToolRun table = ToolRun.schedule(args("--from " + file));
        assertTrue(table.out().startsWith("sem: alltoall over 16 ranks on torus:4x4, 1 byte per block"), table::toString);
        ToolRun header = ToolRun.simulate(args("--schedule " + file));
        assertTrue(header.out().startsWith("alltoall over 16 ranks, 1 byte, on torus:4x4"), header::toString);
    }

    @Test
    void tableAndPicturesPerStep(@TempDir Path dir) {
        ToolRun run = ToolRun.schedule(args("--op alltoall --algo diagonal --fabric torus:8x8 --png "
                + dir.resolve("d.png")));
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.out().contains("start-ups: 6, transmitted: 192 block-units"), run.out());
        for (int step = 1; step <= 6; step++) {
            assertTrue(Files.exists(dir.resolve("d-step" + step + ".png")), "step " + step);
        }
    }

    @Test
    void badInputIsOneLine() {
        for (String line : new String[] {"--op alltoall --algo sem --fabric mesh:4x4 -np 16",
            "--op alltoall --algo sem --fabric torus:4x4 -np 15", "--op alltoall --algo nope --fabric torus:4x4",
            "--op alltoall --algo sem --fabric torus:4x4 --placement random:1"}) {
            ToolRun run = ToolRun.schedule(args(line));
            assertEquals(2, run.exitCode(), line + ": " + run);
            assertEquals(1, run.err().strip().lines().count(), line + ": " + run.err());
        }
        // without a fabric it says what it needs (it said "missing -np K": a new user's trial)
        ToolRun noFabric = ToolRun.schedule(args("--op alltoall --algo sem"));
        assertEquals(2, noFabric.exitCode(), noFabric::toString);
        assertTrue(noFabric.err().contains("--op alltoall needs --fabric torus:NxN"), noFabric::toString);
    }
}
