package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.testapps.StarBcastCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code --coll-rules}, {@code --coll-report}, {@code --model} and {@code auto} through the run command. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CollSelectionOptionsTest {
    private static final String TESTAPPS = LauncherRun.classpathOf(StarBcastCheck.class);

    /** Small bcasts flat, large ones down the binomial schedule: both must show in the report. */
    private static final String TWO_SIZES = """
            {
              "comment": "test rules",
              "rules": [
                {"op": "bcast", "maxBytes": 1024, "algorithm": "linear-p2p"},
                {"op": "bcast", "minBytes": 1025, "algorithm": "binomial"}
              ]
            }
            """;

    @TempDir
    Path dir;

    private static boolean hasRow(String text, String op, String size, String algorithm, String source, int calls,
            int ranks) {
        String pattern = op + "\\s+" + java.util.regex.Pattern.quote(size) + "\\s+" + algorithm + "\\s+" + source
                + "\\s+" + calls + "\\s+" + ranks + "\\s.*";
        return text.lines().anyMatch(l -> l.replaceFirst("^\\[0\\] ", "").matches(pattern));
    }

    @Test
    void threadsRunTheRulesAndReportBothAlgorithms() throws Exception {
        Path rules = Files.writeString(dir.resolve("rules.json"), TWO_SIZES);
        LauncherRun run = LauncherRun.of("--threads", "-np", "4", "--coll-rules", rules.toString(), "--coll-report",
                "-cp", TESTAPPS, StarBcastCheck.class.getName());
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.out().contains("passed bcast on 4 ranks"), run::toString);
        // three roots x sizes 0, 1, 1001 (flat) and 100003 (binomial)
        assertTrue(hasRow(run.err(), "bcast", "<=1 KiB", "linear-p2p", "rules", 3, 4), run::toString);
        assertTrue(hasRow(run.err(), "bcast", "<=128 KiB", "binomial", "rules", 3, 4), run::toString);
        assertTrue(hasRow(run.err(), "barrier", "-", "dissemination", "default", 1, 4), run::toString);
    }

    @Test
    void processesGatherTheReportOnRankZero() throws Exception {
        Path rules = Files.writeString(dir.resolve("rules.json"), TWO_SIZES);
        LauncherRun run = LauncherRun.of("-np", "3", "--coll-rules", rules.toString(), "--coll-report",
                "-cp", TESTAPPS, StarBcastCheck.class.getName());
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(hasRow(run.err(), "bcast", "<=1 KiB", "linear-p2p", "rules", 3, 3), run::toString);
        assertTrue(hasRow(run.err(), "bcast", "<=128 KiB", "binomial", "rules", 3, 3), run::toString);
    }

    /** The process-only threshold (alltoall blocks <= 128 B on 8 ranks: bruck) holds for processes, not threads. */
    @Test
    void processesTakeTheirOwnThresholdsAndThreadsDoNot() {
        String app = io.mpirunj.testapps.AlltoallCheck.class.getName(); // blocks of 8, 24 and 2,056 bytes
        LauncherRun processes = LauncherRun.of("-np", "8", "--coll-report", "-cp", TESTAPPS, app);
        assertEquals(0, processes.exitCode(), processes::toString);
        assertTrue(processes.out().contains("passed alltoall"), processes::toString);
        assertTrue(hasRow(processes.err(), "alltoall", "<=8 B", "bruck", "threshold", 1, 8), processes::toString);
        assertTrue(hasRow(processes.err(), "alltoall", "<=32 B", "bruck", "threshold", 1, 8), processes::toString);
        assertTrue(hasRow(processes.err(), "alltoall", "<=4 KiB", "pairwise", "default", 1, 8), processes::toString);
        LauncherRun threads = LauncherRun.of("--threads", "-np", "8", "--coll-report", "-cp", TESTAPPS, app);
        assertEquals(0, threads.exitCode(), threads::toString);
        assertTrue(hasRow(threads.err(), "alltoall", "<=8 B", "pairwise", "default", 1, 8), threads::toString);
    }

    /** The rules file shipped in benchmarks/rules (written by bench --write-rules) loads and drives a job. */
    @Test
    void theShippedRulesFileRuns() {
        Path shipped = Path.of("..", "benchmarks", "rules", "dev-machine-threads.json");
        LauncherRun run = LauncherRun.of("--threads", "-np", "4", "--coll-rules", shipped.toString(), "--coll-report",
                "-cp", TESTAPPS, StarBcastCheck.class.getName());
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.out().contains("passed bcast on 4 ranks"), run::toString);
        assertTrue(run.err().lines().filter(l -> l.matches("(\\[0\\] )?bcast\\s.*\\srules\\s.*")).count() >= 4,
                run::toString);
    }

    @Test
    void autoUsesTheJobModelAndReportsItsPrediction() {
        LauncherRun run = LauncherRun.of("--threads", "-np", "8", "--coll", "bcast=auto", "--model", "hold=1,end=100",
                "--coll-tune", "0", "--coll-report", "-cp", TESTAPPS, StarBcastCheck.class.getName());
        assertEquals(0, run.exitCode(), run::toString);
        // t_hold << t_end: the root sends to everyone itself (7 sends 1 apart, the last arrives 100 later)
        assertTrue(hasRow(run.err(), "bcast", "<=1 KiB", "linear-p2p", "auto", 3, 8), run::toString);
        assertTrue(run.err().contains("106.000 model time"), run::toString);
    }

    /** By default auto tries what its model cannot rule out, in turn; the report names those calls. */
    @Test
    void autoTriesItsShortlistLiveAndTheReportSaysSo() {
        LauncherRun run = LauncherRun.of("--threads", "-np", "8", "--coll", "bcast=auto", "--model", "hold=1,end=100",
                "--coll-report", "-cp", TESTAPPS, StarBcastCheck.class.getName());
        assertEquals(0, run.exitCode(), run::toString);
        // the shortlist under this model: linear-p2p (the pick), sequential, opt-tree, opt-tree-multiport (all 106);
        // each runs a block of 9 calls (an untimed one and 8 timed): the 3 calls of a size are the first block
        assertTrue(hasRow(run.err(), "bcast", "<=1 KiB", "linear-p2p", "auto-trial", 3, 8), run::toString);
        assertTrue(run.err().lines().noneMatch(l -> l.contains(" sequential ")), run::toString);
    }

    /**
     * An algorithm that cannot run on the job's fabric runs the default in its place: the report names what ran
     * (it named the forced algorithm: a new user's trial); a rules file is refused for one that needs a fabric the
     * job lacks, as --coll is.
     */
    @Test
    void theReportNamesWhatRanInTheForcedAlgorithmsPlaceAndRulesNeedTheirFabric() throws Exception {
        LauncherRun run = LauncherRun.of("--threads", "-np", "4", "--fabric", "mesh:2x2", "--coll", "bcast=star",
                "--coll-report", "-cp", TESTAPPS, StarBcastCheck.class.getName());
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.err().lines().anyMatch(l -> l.matches("bcast\\s+<=1 B\\s+\\S+\\s+forced star, fell back\\s.*")
                && !l.matches("bcast\\s+<=1 B\\s+star\\s.*")), run::toString);

        Path mesh = Files.writeString(dir.resolve("mesh.json"),
                "{\"rules\": [\n {\"op\": \"bcast\", \"algorithm\": \"opt-mesh\"}\n]}");
        run = LauncherRun.of("--threads", "-np", "4", "--coll-rules", mesh.toString(), StarBcastCheck.class.getName());
        assertEquals(2, run.exitCode(), run::toString);
        assertTrue(run.err().startsWith("mpirun-j: --coll-rules " + mesh.toAbsolutePath() + ": rules[0] (line 2):"
                + " bcast=opt-mesh runs only on a fabric the job names: give --fabric or MPIRUNJ_FABRIC (its traits: "),
                run::toString);
        assertEquals(1, run.err().strip().lines().count(), run::toString);
    }

    /** A schedule file over more ranks than the job has: one line before any rank starts (was a trace per rank). */
    @Test
    void aScheduleFileOverMoreRanksThanTheJobIsRefusedAtLaunch() throws Exception {
        LauncherRun written = LauncherRun.of("schedule", "--algo", "binomial", "-np", "9", "--json");
        assertEquals(0, written.exitCode(), written::toString);
        Path nine = Files.writeString(dir.resolve("s9.json"), written.out());
        LauncherRun run = LauncherRun.of("--threads", "-np", "8", "--coll", "bcast=file:" + nine,
                StarBcastCheck.class.getName());
        assertEquals(2, run.exitCode(), run::toString);
        assertEquals("mpirun-j: --coll bcast=file:" + nine + " is a schedule over 9 ranks, more than the job's 8"
                + " (-np 8)", run.err().strip(), run::toString);
    }

    /** A pair-cost model prices its nodes' pairs only: more ranks than nodes is one line (a trace per rank before). */
    @Test
    void aPairCostModelOverFewerNodesThanRanksIsRefusedAtLaunch() throws Exception {
        Path pairs = Files.writeString(dir.resolve("two.pairs.json"), """
                {"format": "mpirunj-pairs/1", "timeUnit": "us", "nodes": 2,
                 "latency": [[0, 10], [10, 0]], "bandwidth": [[0, 100], [100, 0]]}
                """);
        LauncherRun run = LauncherRun.of("--threads", "-np", "3", "--model", "pairs:" + pairs,
                StarBcastCheck.class.getName());
        assertEquals(2, run.exitCode(), run::toString);
        assertEquals("mpirun-j: --model pairs:" + pairs + ": a cost matrix over 2 nodes, fewer than the job's 3 ranks"
                + " (-np 3)", run.err().strip(), run::toString);
        assertEquals(0, LauncherRun.of("--threads", "-np", "2", "--model", "pairs:" + pairs, "-cp", TESTAPPS,
                StarBcastCheck.class.getName()).exitCode());
        java.util.Map<String, String> env = new java.util.HashMap<>(System.getenv());
        env.put("MPIRUNJ_MODEL", "pairs:" + pairs);
        run = LauncherRun.of(env, "--threads", "-np", "3", StarBcastCheck.class.getName());
        assertEquals(2, run.exitCode(), run::toString);
        assertEquals("mpirun-j: MPIRUNJ_MODEL=pairs:" + pairs + ": a cost matrix over 2 nodes, fewer than the job's 3"
                + " ranks (-np 3)", run.err().strip(), run::toString);
    }

    @Test
    void badRulesFilesAndModelsAreOneLineUsageErrors() throws Exception {
        Path unknown = Files.writeString(dir.resolve("unknown.json"),
                "{\"rules\": [\n {\"op\": \"bcast\", \"algorithm\": \"nope\"}\n]}");
        LauncherRun run = LauncherRun.of("--threads", "-np", "2", "--coll-rules", unknown.toString(),
                StarBcastCheck.class.getName());
        assertEquals(2, run.exitCode(), run::toString);
        assertTrue(run.err().startsWith("mpirun-j: --coll-rules " + unknown.toAbsolutePath() + ": rules[0] (line 2): "
                + "unknown bcast algorithm 'nope' (expected one of: "), run::toString);
        assertEquals(1, run.err().strip().lines().count(), run::toString);

        Path broken = Files.writeString(dir.resolve("broken.json"), "{\"rules\": [\n {\"op\": \"bcast\",,}\n]}");
        run = LauncherRun.of("--threads", "-np", "2", "--coll-rules", broken.toString(), StarBcastCheck.class.getName());
        assertEquals(2, run.exitCode(), run::toString);
        assertTrue(run.err().contains("line 2"), run::toString);
        assertEquals(1, run.err().strip().lines().count(), run::toString);

        run = LauncherRun.of("--threads", "-np", "2", "--coll-tune", "-1", StarBcastCheck.class.getName());
        assertEquals(2, run.exitCode(), run::toString);
        assertEquals("mpirun-j: --coll-tune -1 (expected: rounds from 0 (off) to 1000)", run.err().strip(), run::toString);
        run = LauncherRun.of("-np", "2", "-x", "MPIRUNJ_COLL_TUNE=many", StarBcastCheck.class.getName());
        assertEquals(2, run.exitCode(), run::toString);
        assertEquals("mpirun-j: MPIRUNJ_COLL_TUNE=many (expected: rounds from 0 (off) to 1000)", run.err().strip(),
                run::toString);

        run = LauncherRun.of("--threads", "-np", "2", "--model", "hold=fast", StarBcastCheck.class.getName());
        assertEquals(2, run.exitCode(), run::toString);
        assertTrue(run.err().startsWith("mpirun-j: --model: model spec 'hold=fast': "), run::toString);
        assertEquals(1, run.err().strip().lines().count(), run::toString);
    }

    @Test
    void listAlgorithmsShowsTraitsAndAuto() {
        LauncherRun run = LauncherRun.of("--list-algorithms");
        assertEquals(0, run.exitCode(), run::toString);
        List<String> lines = run.outLines();
        assertTrue(lines.stream().anyMatch(l -> l.matches("bcast\\s+opt-tree\\s+schedule: .*\\[schedule, needs-model\\]")),
                run::toString);
        assertTrue(lines.stream().anyMatch(l -> l.matches("bcast\\s+auto\\s+the fastest .*")), run::toString);
        assertTrue(lines.stream().anyMatch(l -> l.matches("alltoall\\s+sem\\s+.*placement-aware, torus-fabric\\]")),
                run::toString);
    }
}
