package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mpirunj.examples.Ring;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.fabric.wormhole.Fabric;
import io.mpirunj.fabric.wormhole.WormholeParams;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's live-fabric options ({@code --fabric-params}, {@code --fabric-time-scale},
 * {@code --fabric-fault}) and message traces ({@code --trace}, {@code mpirun-j trace}), ranks as threads.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FabricLaunchTest {
    private static final String EXAMPLES = LauncherRun.classpathOf(Ring.class);

    /**
     * Ring on an emulated 2x2 mesh with a cost model (t_end = 55 units, 40 us each): every message of the
     * trace takes at least the model's t_end on the job's clock, and the trace command draws it.
     */
    /**
     * As processes over TCP, an eager message streamed straight into a receive posted before it came is a
     * delivery in the trace too (it bypasses the transport's frame callback), and tracing keeps the protocol.
     */
    @Test
    void aTracedTcpRunRecordsAMessageStreamedIntoAPostedReceive(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("posted.trace");
        LauncherRun run = LauncherRun.of("-np", "2", "--trace", trace.toString(),
                io.mpirunj.testapps.PostedMediumMessage.class.getName());
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.out().contains("ok"), run::toString);
        ObjectMapper json = new ObjectMapper();
        java.util.Set<String> sent = new java.util.HashSet<>();
        java.util.Set<String> delivered = new java.util.HashSet<>();
        for (int r = 0; r < 2; r++) {
            for (String l : Files.readAllLines(Path.of(trace + ".r" + r))) {
                JsonNode n = json.readTree(l);
                String key = n.get("src").asInt() + ":" + n.get("dst").asInt() + ":" + n.get("seq").asLong();
                (n.get("event").asText().equals("send") ? sent : delivered).add(key);
            }
        }
        assertTrue(sent.size() >= 1, sent::toString);
        assertEquals(sent, delivered, "every message sent is delivered in the trace");
    }

    @Test
    void aTracedRunOnTheEmulatedFabricShowsTheModelsTimes(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("ring.trace");
        LauncherRun run = LauncherRun.of("--threads", "-np", "4", "--fabric", "mesh:2x2", "--fabric-params",
                "hold=20,end=55", "--fabric-time-scale", "40", "--trace", trace.toString(), "-cp", EXAMPLES,
                Ring.class.getName());
        assertEquals(0, run.exitCode(), run::toString);
        List<String> lines = Files.readAllLines(trace);
        ObjectMapper json = new ObjectMapper();
        long sends = 0;
        long delivers = 0;
        java.util.Map<String, Long> sentAt = new java.util.HashMap<>();
        java.util.Map<String, Long> deliveredAt = new java.util.HashMap<>();
        for (String l : lines) {
            JsonNode n = json.readTree(l);
            String key = n.get("src").asInt() + ":" + n.get("dst").asInt() + ":" + n.get("seq").asLong();
            if (n.get("event").asText().equals("send")) {
                sends++;
                sentAt.put(key, n.get("ns").asLong());
            } else {
                delivers++;
                deliveredAt.put(key, n.get("ns").asLong());
            }
        }
        assertTrue(sends >= 4 && sends == delivers, lines.toString());
        for (String key : sentAt.keySet()) {
            long took = deliveredAt.get(key) - sentAt.get(key);
            // 55 units x 40 us; the arbiter never delivers early (a little slack for per-thread clock reads)
            assertTrue(took >= 0.98 * 55 * 40_000, key + " took " + took + " ns");
        }
        Path png = dir.resolve("ring.png");
        LauncherRun drawn = LauncherRun.of("trace", trace.toString(), "--png", png.toString(), "--model",
                "hold=20,end=55", "--model-unit-us", "40");
        assertEquals(0, drawn.exitCode(), drawn::toString);
        assertTrue(drawn.out().contains(sends + " messages (0 never delivered)"), drawn::toString);
        assertTrue(Files.size(png) > 1000);
    }

    /** One rank's file of a process job holds its sends only: the mean said NaN (a new user's trial). */
    @Test
    void aTraceWithoutDeliveriesSaysSo(@TempDir Path dir) throws Exception {
        Path trace = Files.writeString(dir.resolve("p.trace.r0"),
                "{\"event\":\"send\",\"src\":0,\"dst\":1,\"seq\":0,\"tag\":7,\"bytes\":1024,\"ns\":12345}\n");
        LauncherRun run = LauncherRun.of("trace", trace.toString());
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.out().contains("mean send->delivery none delivered in these files"), run::toString);
        assertFalse(run.out().contains("NaN"), run::toString);
    }

    @Test
    void badFabricOptionsAreOneLine() {
        LauncherRun run = LauncherRun.of("--threads", "-np", "4", "--fabric", "mesh:2x2", "--fabric-params",
                "ss=1", "-cp", EXAMPLES, Ring.class.getName());
        assertEquals(2, run.exitCode(), run::toString);
        assertEquals(1, run.errLines().size(), run::toString);
        assertTrue(run.err().startsWith("mpirun-j: --fabric-params ss=1: wormhole params 'ss=1': missing 'sd=' "
                + "(expected: ss=S,sd=S,cd=C,rs=R,rd=R[,flit=BYTES])"), run::toString);
        // text that is no form of --fabric-params: the error names every form, as the help does
        run = LauncherRun.of("--threads", "-np", "4", "--fabric", "mesh:2x2", "--fabric-params", "bogus=1",
                "-cp", EXAMPLES, Ring.class.getName());
        assertEquals(2, run.exitCode(), run::toString);
        assertEquals(List.of("mpirun-j: --fabric-params bogus=1: fabric params 'bogus=1' are neither wormhole "
                + "parameters nor a cost model (expected: " + Fabric.PARAMS_FORM + ")"), run.errLines(), run::toString);
        String help = String.join(" ", MpirunJ.commandLine().getCommandSpec().findOption("--fabric-params")
                .description());
        for (String form : List.of(WormholeParams.FORM, Fabric.MODEL_PARAMS_FORM, ModelSpec.LOGP_FORM)) {
            assertTrue(Fabric.PARAMS_FORM.contains(form) && help.contains(form), form + " in " + help);
        }
        run = LauncherRun.of("--threads", "-np", "4", "--fabric", "mesh:2x2", "--fabric-params", "hold=20,end=55",
                "--fabric-time-scale", "0", "-cp", EXAMPLES, Ring.class.getName());
        assertEquals(2, run.exitCode(), run::toString);
        assertEquals("mpirun-j: --fabric-time-scale 0.0 (expected: microseconds per model unit, a number > 0)",
                run.err().trim());
        run = LauncherRun.of("--threads", "-np", "4", "--fabric-params", "hold=20,end=55", "-cp", EXAMPLES,
                Ring.class.getName());
        assertEquals(2, run.exitCode(), run::toString);
        assertEquals("mpirun-j: --fabric-params needs --fabric or MPIRUNJ_FABRIC (the network to emulate)",
                run.err().trim());
        run = LauncherRun.of("--threads", "-np", "4", "--fabric", "mesh:2x2", "--fabric-params", "hold=20,end=55",
                "--fabric-fault", "drop:0/0-1/1", "-cp", EXAMPLES, Ring.class.getName());
        assertEquals(2, run.exitCode(), run::toString);
        assertEquals(List.of("mpirun-j: --fabric-fault 'drop:0/0-1/1': nodes 0/0 and 1/1 are not adjacent in mesh:2x2 "
                + "(expected: slow:A-B:FACTOR, drop:A-B[@TIME] or jitter:SIGMA[:SEED])"), run.errLines(), run::toString);
        // named as typed, the reason's own expectation not doubled (before: "--fabric mesh:2x2 --fabric-params
        // hold=20,end=55: fabric fault 'drop:0/1-0/9': ... (expected: coordinate 1 in 0..1) (expected: ...)")
        run = LauncherRun.of("--threads", "-np", "4", "--fabric", "mesh:2x2", "--fabric-params", "hold=20,end=55",
                "--fabric-fault", "slow:0/0-0/1:2", "--fabric-fault", "drop:0/1-0/9", "-cp", EXAMPLES,
                Ring.class.getName());
        assertEquals(List.of("mpirun-j: --fabric-fault 'drop:0/1-0/9': node address '0/9' out of range on mesh:2x2 "
                + "(expected: coordinate 1 in 0..1)"), run.errLines(), run::toString);
        run = LauncherRun.of("--threads", "-np", "4", "--fabric", "mesh:2x2", "--fabric-params", "hold=20,end=55",
                "--fabric-fault", "melt:0/0-0/1", "-cp", EXAMPLES, Ring.class.getName());
        assertEquals(List.of("mpirun-j: --fabric-fault 'melt:0/0-0/1': unknown fault kind 'melt' (expected: "
                + "slow:A-B:FACTOR, drop:A-B[@TIME] or jitter:SIGMA[:SEED])"), run.errLines(), run::toString);
        LauncherRun trace = LauncherRun.of("trace", "/nonexistent/run.trace");
        assertEquals(2, trace.exitCode(), trace::toString);
        assertEquals("mpirun-j trace: /nonexistent/run.trace: no such trace (nor /nonexistent/run.trace.r0)",
                trace.err().trim());
    }
}
