package io.mpirunj.launcher.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mpirunj.fabric.model.LinearFit;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.fabric.model.ParameterizedModel;
import io.mpirunj.fabric.wormhole.WormholeParams;
import io.mpirunj.launcher.MpirunJ;
import io.netty.util.ResourceLeakDetector;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class CalibrateCommandTest {

    private record Run(int code, String out, String err) {
    }

    private static Run calibrate(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        picocli.CommandLine cl = MpirunJ.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        String[] all = new String[args.length + 1];
        all[0] = "calibrate";
        System.arraycopy(args, 0, all, 1, args.length);
        return new Run(cl.execute(all), out.toString(), err.toString());
    }

    @Test
    void theFitIsExactOnALineAndSaysSoWhenItIsNot() {
        LinearFit exact = LinearFit.of(new double[] {1024, 4096, 16384}, new double[] {4048, 10192, 34768});
        assertEquals(2000, exact.intercept(), 1e-9);
        assertEquals(2, exact.slope(), 1e-12);
        assertEquals(1, exact.r2(), 1e-12);
        LinearFit noisy = LinearFit.of(new double[] {0, 1, 2, 3}, new double[] {0, 2, 1, 3});
        assertEquals(0.3, noisy.intercept(), 1e-12);
        assertEquals(0.8, noisy.slope(), 1e-12);
        assertEquals(0.64, noisy.r2(), 1e-12);
    }

    /**
     * A cost has no negative part: a fit that would have one is the better of the best line through the origin and
     * the best constant, with that line's own r² (a model file had the clamped line beside the unclamped fit's r²).
     */
    @Test
    void aCostFitHasNoNegativePartAndItsR2IsOfTheLineItGives() {
        double[] x = {0, 1, 2, 3};
        LinearFit plain = LinearFit.nonNegative(x, new double[] {0, 2, 1, 3});
        assertEquals(LinearFit.of(x, new double[] {0, 2, 1, 3}), plain);
        // falling times (a noisy small-size hold): the constant 2.5 fits better than any line through the origin
        LinearFit falling = LinearFit.nonNegative(x, new double[] {4, 3, 2, 1});
        assertEquals(2.5, falling.intercept(), 1e-12);
        assertEquals(0, falling.slope());
        assertEquals(0, falling.r2(), 1e-12);
        assertEquals(1.5, falling.maxResidual(), 1e-12);
        // a negative intercept: through the origin, slope sum(xy)/sum(xx) = 22/14, r2 of that line
        LinearFit steep = LinearFit.nonNegative(x, new double[] {-1, 1, 3, 5});
        assertEquals(0, steep.intercept());
        assertEquals(22.0 / 14, steep.slope(), 1e-12);
        double ssRes = 1 + Math.pow(1 - 22.0 / 14, 2) + Math.pow(3 - 44.0 / 14, 2) + Math.pow(5 - 66.0 / 14, 2);
        assertEquals(1 - ssRes / 20, steep.r2(), 1e-12);
    }

    @Test
    void badArgumentsAreOneLine() {
        Run r = calibrate("-np", "1", "--threads");
        assertEquals(2, r.code);
        assertEquals("mpirun-j calibrate: -np 1 (expected: >= 2 ranks; t_hold needs >= 3)", r.err.trim());
        r = calibrate("-np", "4", "--threads", "--out", "model.txt");
        assertEquals(2, r.code);
        assertEquals("mpirun-j calibrate: --out model.txt (expected: a file name ending in .json)", r.err.trim());
        r = calibrate("-np", "4", "--threads", "--out", "/nonexistent-dir/model.json");
        assertEquals(2, r.code);
        assertEquals("mpirun-j calibrate: --out /nonexistent-dir/model.json: no such directory /nonexistent-dir",
                r.err.trim());
        r = calibrate("-np", "3", "--threads", "--hold-sends", "5");
        assertEquals(2, r.code);
        assertEquals("mpirun-j calibrate: --hold-sends 5 with -np 3 (expected: 2..2: rank 0 sends back to back to ranks "
                + "1..K)", r.err.trim());
        r = calibrate("-np", "4", "--threads", "--statistic", "mean");
        assertEquals(2, r.code);
        assertEquals("mpirun-j calibrate: --statistic mean (expected: median or min)", r.err.trim());
    }

    /**
     * At -np 2 there is no second receiver for back-to-back sends, so t_hold is not measured: --out (a model needs
     * t_hold) is refused before anything runs, the table says n/a, and the JSON has nulls (it printed NaN, and
     * --out died on it with a stack trace).
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void atTwoRanksOnlyTEndIsMeasuredAndSaidSo(@TempDir Path dir) throws Exception {
        Run r = calibrate("-np", "2", "--threads", "--out", dir.resolve("model.json").toString());
        assertEquals(2, r.code);
        assertEquals("mpirun-j calibrate: --out needs t_hold, which needs -np 3 or more (rank 0 sends back to back to "
                + "ranks 1..k); -np 2 measures t_end only", r.err.trim());
        r = calibrate("-np", "2", "--threads", "--sizes", "0,1024", "--reps", "1", "--jit-warmup", "0");
        assertEquals(0, r.code, r.toString());
        assertTrue(r.out.contains("n/a"), r.out);
        assertTrue(r.out.contains("t_hold needs -np 3 or more"), r.out);
        assertTrue(r.out.contains("model: none (it needs t_hold)"), r.out);
        assertTrue(!r.out.contains("NaN"), r.out);
        r = calibrate("-np", "2", "--threads", "--sizes", "0,1024", "--reps", "1", "--jit-warmup", "0", "--json");
        assertEquals(0, r.code, r.toString());
        com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out);
        assertTrue(json.get("tHold").get(1).isNull(), r.out);
        assertTrue(json.get("fit").get("hold").isNull(), r.out);
        assertTrue(json.get("fit").get("end").get("a").isNumber(), r.out);
        assertTrue(json.get("logp").get("g").isNull(), r.out);
    }

    /** Plain in-JVM transport: the shape of the output and a model file that ModelSpec reads back. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void onThreadsItWritesAModelFileThatLoads(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("model.json");
        Run r = calibrate("-np", "3", "--threads", "--sizes", "0,1024,65536", "--reps", "3", "--pairs", "--out",
                out.toString());
        assertEquals(0, r.code, r.toString());
        assertTrue(r.out.contains("fit (us, m bytes): t_hold = "), r.out);
        ParameterizedModel m = (ParameterizedModel) ModelSpec.parse(out.toString());
        assertEquals(1, m.ports());
        assertTrue(m.tEnd(65536) > 0, m.toString());
        // the pair matrix beside it, in the format TTCC's heterogeneous model loads
        assertTrue(ModelSpec.parse("pairs:" + dir.resolve("model.pairs.json")).tEnd(0, 1, 1024) > 0);
    }

    /**
     * Issue 14's acceptance (threads, np 16): on the emulated mesh:4x4 with the paper's parameters,
     * calibrate recovers t_hold and t_end within ±10 % of what the engine predicts for the same protocol,
     * 1 KB to 64 KB. The minimum of 5 repetitions: a rank's wake-up after its message arrived is the
     * host's and only ever adds (at 2 µs per unit t_end(1 KB) came out +44 % with the median at load ~50,
     * +33 % with the minimum at load ~80). That error is a host time, not a share of the message's time,
     * so 5 µs per unit is needed only at the small sizes: 16 KB and 64 KB run at 1 µs per unit, where the
     * ±10 % is still more wall time (12 ms at t_end(16 KB)) than at 1 KB and 5 µs per unit (6 ms). At 5 µs
     * per unit throughout, the 64 KB messages alone took 80 of this test's 120 s.
     */
    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void onTheEmulatedMeshItRecoversTheModelsTimes() throws Exception {
        ResourceLeakDetector.Level level = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED); // a timing test (see EmulatedFabricTest)
        try {
            JsonNode small = recoversTheModelsTimes("5", "1024,4096", "-np", "16", "--threads");
            // the engine's prediction is the paper's closed form here: t_end(1 KiB, 1 hop) = 5500 + 7*1024 + 2*2
            assertEquals(5500 + 7 * 1024 + 2 * 2, small.get("predicted").get("tEnd").get(0).asDouble(), 1e-9);
            recoversTheModelsTimes("1", "16384,65536", "-np", "16", "--threads");
        } finally {
            ResourceLeakDetector.setLevel(level);
        }
    }

    /**
     * Issue 14's acceptance as processes (np 8): the launcher hosts the arbiter; the same ±10 % against the
     * engine's prediction, 1 KB to 64 KB, on the emulated mesh:4x4 at 5 µs per unit. The host's lag between
     * the model's delivery and the message's arrival is not charged to the model (see EmulatedTransport);
     * what remains is each rank's own wake-up after a message arrives, which only ever adds time, so the
     * minimum of 5 repetitions is kept. Not at 1 µs per unit for the large sizes as on threads: at load ~45
     * t_end(64 KiB) came out +47 % (218 ms) there, so as processes the host's error is not a fixed time.
     */
    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void asProcessesOnTheEmulatedMeshItRecoversTheModelsTimes() throws Exception {
        recoversTheModelsTimes("5", "1024,4096,16384,65536", "-np", "8");
    }

    /**
     * One calibration on mesh:4x4 with the paper's parameters at {@code usPerUnit}: every measured t_hold and
     * t_end within ±10 % of the engine's prediction; returns the JSON result.
     */
    private static JsonNode recoversTheModelsTimes(String usPerUnit, String sizes, String... ranks) throws Exception {
        List<String> args = new ArrayList<>(List.of(ranks));
        args.addAll(List.of("--fabric", "mesh:4x4", "--fabric-params", WormholeParams.PAPER.toString(),
                "--fabric-time-scale", usPerUnit, "--sizes", sizes, "--reps", "5", "--statistic", "min", "--json"));
        Run r = calibrate(args.toArray(String[]::new));
        assertEquals(0, r.code, r.toString());
        JsonNode j = new ObjectMapper().readTree(r.out);
        for (String field : new String[] {"tHold", "tEnd"}) {
            JsonNode measured = j.get("modelUnits").get(field);
            JsonNode predicted = j.get("predicted").get(field);
            assertEquals(sizes.split(",").length, measured.size(), r.out);
            for (int i = 0; i < measured.size(); i++) {
                double p = predicted.get(i).asDouble();
                assertEquals(p, measured.get(i).asDouble(), 0.10 * p, field + "[" + i + "] in " + r.out);
            }
        }
        return j;
    }
}
