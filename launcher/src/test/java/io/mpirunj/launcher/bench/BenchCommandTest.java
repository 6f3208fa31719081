package io.mpirunj.launcher.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.benchmarks.osu.OsuBenchmark;
import io.mpirunj.benchmarks.osu.OsuTable;
import io.mpirunj.launcher.MpirunJ;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code mpirun-j bench}, registered under the run command as the launcher will register it. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BenchCommandTest {
    private static final String[] FEW = {"-i", "3", "-x", "1", "--jit-warmup", "4"};

    record Run(int code, String out, String err) {
        List<String> errLines() {
            return err.isEmpty() ? List.of() : Arrays.asList(err.split("\\R"));
        }
    }

    /** {@code mpirun-j ARGS}, seeing no OSU_HOME or MPJ_HOME whatever this machine has. */
    static Run mpirunj(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = MpirunJ.commandLine();
        BenchCommand bench = (BenchCommand) cl.getSubcommands().get("bench").getCommand();
        bench.environment = Map.of();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    static String[] with(String[] a, String... more) {
        String[] all = Arrays.copyOf(a, a.length + more.length);
        System.arraycopy(more, 0, all, a.length, more.length);
        return all;
    }

    @Test
    void listsTheBenchmarks() {
        Run r = mpirunj("bench", "--list");
        assertEquals(0, r.code(), r.err());
        for (OsuBenchmark b : OsuBenchmark.values()) {
            assertTrue(r.out().contains(b.command() + " "), r.out());
        }
        assertTrue(r.out().contains("[--coll bcast=all]"), r.out());
    }

    @Test
    void runsABenchmarkThroughTheRunCommand() {
        Run r = mpirunj(with(new String[] {"bench", "osu_bcast", "-np", "3", "--threads", "-m", "1:8", "-f"}, FEW));
        assertEquals(0, r.code(), r.err());
        List<String> lines = Arrays.asList(r.out().split("\\R"));
        assertEquals("", lines.get(0), r.out());
        assertEquals(OsuTable.title(OsuBenchmark.BCAST), lines.get(1));
        assertTrue(lines.get(2).startsWith("# mpirun-j: np 3, "), lines.get(2));
        assertEquals("# Datatype: MPI_CHAR.", lines.get(3));
        assertEquals(OsuTable.columnHeader(OsuBenchmark.BCAST, true), lines.get(4));
        assertEquals(4 + 4 + 1, lines.size(), r.out());
        for (int i = 5; i < lines.size(); i++) {
            assertTrue(lines.get(i).matches("\\d+ +\\d+\\.\\d\\d +\\d+\\.\\d\\d +\\d+\\.\\d\\d +3 +\\d+\\.\\d\\d"
                    + " +\\d+\\.\\d\\d +\\d+\\.\\d\\d"), lines.get(i));
            assertEquals(10 + 18 * 3 + 12 + 18 * 2 + 20, lines.get(i).length());
        }
    }

    @Test
    void optionsMayComeBeforeTheName() {
        Run r = mpirunj(with(new String[] {"bench", "-np", "2", "--threads", "osu_barrier"}, FEW));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("\n# Avg Latency(us)\n"), r.out());
        assertTrue(r.out().contains("# mpirun-j: np 2, "), r.out());
    }

    @Test
    void takesTheRunCommandsLaunchOptionsAndHandsThemOn() {
        CommandLine cl = MpirunJ.commandLine();
        cl.parseArgs("bench", "-np", "4", "--machinefile", "hosts", "-H", "a,b:2", "--map-by", "node",
                "--launch-agent", "docker exec", "--rendezvous-host", "10.0.0.1", "--oversubscribe", "-J", "-Xmx64m",
                "--jvm-arg=-ea", "--fabric", "torus:4x4", "--placement", "random:3", "--fabric-params", "hold=2,end=5",
                "--fabric-time-scale", "0.5", "osu_bcast");
        BenchCommand bench = cl.getSubcommands().get("bench").getCommand();
        assertEquals(List.of("--hostfile", "hosts", "--host", "a,b:2", "--map-by", "node", "--launch-agent",
                "docker exec", "--rendezvous-host", "10.0.0.1", "--oversubscribe", "-J", "-Xmx64m", "-J", "-ea",
                "--fabric", "torus:4x4", "--placement", "random:3", "--fabric-params", "hold=2,end=5",
                "--fabric-time-scale", "0.5"), bench.launcherOptions());
        // the run command's own option model, not a copy: same names, same labels
        CommandLine.Model.CommandSpec run = cl.getCommandSpec();
        CommandLine.Model.CommandSpec b = cl.getSubcommands().get("bench").getCommandSpec();
        for (String name : List.of("--hostfile", "--machinefile", "--host", "-H", "--map-by", "--launch-agent",
                "--rendezvous-host", "--oversubscribe", "-J", "--jvm-arg", "--fabric", "--placement", "--fabric-params",
                "--fabric-time-scale")) {
            assertEquals(run.findOption(name).toString(), b.findOption(name).toString(), name);
            assertEquals(List.of(run.findOption(name).description()), List.of(b.findOption(name).description()), name);
        }
    }

    @Test
    void launchOptionsAfterTheNameReachTheRunCommand(@TempDir Path dir) throws Exception {
        Path hosts = Files.writeString(dir.resolve("hosts"), "localhost slots=2\n");
        assertUsage("mpirun-j: --threads runs every rank in this JVM: it cannot take --hostfile or --host",
                "bench", "osu_barrier", "-np", "2", "--threads", "--machinefile", hosts.toString());
        assertUsage("mpirun-j: --map-by needs hosts (--hostfile FILE or --host a,b)",
                "bench", "osu_barrier", "-np", "2", "--map-by", "node");
    }

    @Test
    void badInputIsOneLineAndStatus2() {
        assertUsage("mpirun-j bench: osu_bcast: -m 8:2 (expected: MIN <= MAX)",
                "bench", "osu_bcast", "-np", "2", "--threads", "-m", "8:2");
        assertUsage("mpirun-j bench: unknown benchmark 'osu_nope' (expected one of: " + OsuBenchmark.commands() + ")",
                "bench", "osu_nope", "-np", "2");
        assertUsage("mpirun-j bench: -np 3: osu_latency needs exactly 2 ranks", "bench", "osu_latency", "-np", "3");
        // each job's rank 0 said so, then aborted it (a new user's trial)
        assertUsage("mpirun-j bench: -np 4: osu_multicast -g 4 (expected: a group size from 1 to np-1 = 3)", "bench",
                "osu_multicast", "-np", "8,4", "--threads", "-g", "4");
        assertUsage("mpirun-j bench: missing -np N (the number of ranks; several as -np 2,4,8)", "bench", "osu_bcast");
        assertUsage("mpirun-j bench: unexpected argument after osu_latency: 'extra' (one benchmark NAME per run)",
                "bench", "osu_latency", "extra", "-np", "2");
        assertUsage("mpirun-j bench: unexpected argument after osu_bcast: 'osu_bw' (one benchmark NAME per run)",
                "bench", "osu_bcast", "-np", "2", "osu_bw");
        assertUsage("mpirun-j bench: --coll alltoall=all: osu_bcast measures bcast (expected: bcast=all)",
                "bench", "osu_bcast", "-np", "2", "--coll", "alltoall=all");
        assertUsage("mpirun-j bench: --write-rules /nonexistent-dir/r.json: no such directory /nonexistent-dir",
                "bench", "osu_bcast", "-np", "2", "--coll", "bcast=binomial+linear-p2p", "--write-rules",
                "/nonexistent-dir/r.json");
        assertUsage("mpirun-j bench: --coll '' names no algorithm (expected: op=algorithm, op=all or op=a+b; without "
                + "--coll the defaults run)", "bench", "osu_bcast", "-np", "2", "--coll", "");
        assertUsage("mpirun-j bench: --coll bcast=all,bcast=binomial: bcast is both swept and fixed (expected: one of "
                + "them)", "bench", "osu_bcast", "-np", "2", "--coll", "bcast=all,bcast=binomial");
        assertUsage("mpirun-j bench: --coll bcast=binomial+star: bcast=star runs only on a fabric the job names: give "
                + "--fabric (and --placement, --fabric-params), as to the run command", "bench", "osu_bcast", "-np", "2",
                "--coll", "bcast=binomial+star");
        Run r = mpirunj("bench", "osu_bcast", "-np", "2", "--coll", "bcast=nope+binomial");
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("mpirun-j bench: --coll: unknown bcast algorithm 'nope' (expected one of: "),
                r.err());
        assertEquals(1, r.errLines().size(), r.err());
        r = mpirunj("bench", "osu_bcast", "-np", "2", "--bogus");
        assertEquals(2, r.code());
        assertEquals(1, r.errLines().size(), r.err());
        assertTrue(r.err().contains("--bogus"), r.err());
    }

    @Test
    void theProgramItselfReportsBadOptionsInOneLine() {
        Run r = mpirunj("-np", "2", "--threads", "-cp", BenchCommand.benchmarksClasspath(),
                OsuBenchmark.BCAST.mainClass(), "-m", "8:2");
        assertEquals(2, r.code(), r.err());
        assertEquals("osu_bcast: -m 8:2 (expected: MIN <= MAX)", r.errLines().get(0), r.err());
        assertEquals("", r.out());
    }

    @Test
    void sweepsAlgorithmsAndRankCounts(@TempDir Path dir) throws Exception {
        Run r = mpirunj(with(new String[] {"bench", "osu_bcast", "-np", "2,3", "--threads", "-m", "1:4",
            "--coll", "bcast=binomial-p2p+linear-p2p", "--out", dir.toString()}, FEW));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("skipped: OSU_HOME not set ("), r.err());
        assertTrue(r.err().contains("skipped: MPJ_HOME not set ("), r.err());
        assertTrue(r.out().contains("# osu_bcast sweep: Avg Latency(us) by algorithm"), r.out());
        assertTrue(r.out().contains("# np 3"), r.out());
        Path csv = dir.resolve("osu_bcast.csv");
        assertTrue(r.out().contains("# wrote " + csv), r.out());
        List<String> rows = Files.readAllLines(csv);
        assertEquals(1 + 2 * 2 * 3, rows.size(), String.join("\n", rows));
        assertTrue(Files.size(dir.resolve("osu_bcast-np2.png")) > 2_000);
        assertTrue(Files.size(dir.resolve("osu_bcast-by-np.png")) > 2_000);
    }

    @Test
    void interleaveTimesTheAlgorithmsInOneJobAndComparesThem() {
        Run r = mpirunj(with(new String[] {"bench", "osu_bcast", "-np", "3", "--threads", "-m", "64:128",
            "--coll", "bcast=auto+linear-p2p+linear-p2p", "--interleave", "--block", "2"}, FEW));
        assertEquals(0, r.code(), r.err());
        List<String> lines = Arrays.asList(r.out().split("\\R"));
        assertEquals(OsuTable.title(OsuBenchmark.BCAST), lines.get(1));
        assertTrue(lines.get(2).startsWith("# mpirun-j: np 3, LocalTransport, bcast compared: auto, linear-p2p, "
                + "linear-p2p;"), lines.get(2));
        for (int size : new int[] {64, 128}) {
            assertTrue(r.out().contains("# " + size + " B: 2 rounds of 2 call(s) per algorithm"), r.out());
            assertTrue(r.err().contains("osu_bcast " + size + " B: during the timed rounds, per rank at most: JIT "),
                    r.err());
        }
        assertTrue(r.out().contains("\nlinear-p2p#2 "), r.out());
        assertTrue(r.out().contains("\nauto (ran "), r.out());
        assertTrue(r.out().contains("# auto / fastest, held out (linear-p2p"), r.out());
        assertTrue(r.out().contains("# one schedule (the runner sends the same messages in the same order): "
                + "linear-p2p = linear-p2p#2"), r.out());
    }

    /**
     * On the emulated fabric bench times the papers' algorithms against the baselines: SEM against pairwise on a 2x2
     * torus (a new user's trial: fabric algorithms were refused, bench had no --fabric).
     */
    @Test
    void interleaveTimesAFabricAlgorithmOnTheEmulatedFabric() {
        Run r = mpirunj(with(new String[] {"bench", "osu_alltoall", "-np", "4", "--threads", "-m", "64:64",
            "--fabric", "torus:2x2", "--fabric-params", "hold=20,end=55", "--coll", "alltoall=sem+pairwise",
            "--interleave", "--block", "2"}, FEW));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("alltoall compared: sem, pairwise;"), r.out());
        assertTrue(r.out().contains("\nsem "), r.out());
        assertTrue(r.out().contains("\npairwise "), r.out());
        // that SEM itself runs on such a fabric (no fallback), sending its schedule's messages: SemLiveTest
    }

    @Test
    void interleaveNeedsAlgorithmsAndNoRules() {
        assertUsage("mpirun-j bench: --interleave needs the algorithms to compare (--coll bcast=a+b, =all or "
                + "=auto+all)", "bench", "osu_bcast", "-np", "2", "--interleave");
        assertUsage("mpirun-j bench: --block 3 needs --interleave", "bench", "osu_bcast", "-np", "2", "--block", "3");
        assertUsage("mpirun-j bench: -f/--full: --interleave prints its own table (averages and ratios), not OSU's "
                + "columns (drop -f)", "bench", "osu_bcast", "-np", "2", "--coll", "bcast=all", "--interleave", "-f");
        assertUsage("mpirun-j bench: --write-rules needs a sweep of one job per algorithm (drop --interleave)",
                "bench", "osu_bcast", "-np", "2", "--coll", "bcast=all", "--interleave", "--write-rules", "r.json");
        assertUsage("mpirun-j bench: osu_bcast: --block 0 (expected: a whole number >= 1)",
                "bench", "osu_bcast", "-np", "2", "--coll", "bcast=auto+all", "--interleave", "--block", "0");
    }

    @Test
    void benchJobsRunProcessRanksOnTheJvmsOwnCompileThresholds() {
        InJvmJobRunner runner = new InJvmJobRunner("/bench.jar", null, List.of());
        List<String> processes = runner.arguments(new io.mpirunj.benchmarks.sweep.SweepJob(8, false, null, "Main",
                List.of()));
        assertTrue(processes.contains(MpirunJ.STEADY_STATE_JIT), processes.toString());
        List<String> threads = runner.arguments(new io.mpirunj.benchmarks.sweep.SweepJob(8, true, null, "Main",
                List.of()));
        assertEquals(List.of("-np", "8", "--threads", "-cp", "/bench.jar", "Main"), threads);
    }

    private static void assertUsage(String expected, String... args) {
        Run r = mpirunj(args);
        assertEquals(2, r.code(), r.out() + r.err());
        assertEquals(List.of(expected), r.errLines());
    }
}
