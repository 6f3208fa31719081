package io.mpirunj.benchmarks.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.benchmarks.osu.OsuBenchmark;
import io.mpirunj.benchmarks.osu.OsuOutputChecks;
import io.mpirunj.benchmarks.render.PictureChecks;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SweepTest {
    /** Runs each job's benchmark on ranks as threads in this JVM, as mpirun-j --threads would. */
    private static final JobRunner LOCAL = job -> OsuOutputChecks.run(OsuBenchmark.byMainClass(job.mainClass()),
            job.np(), job.coll(), job.args().toArray(String[]::new));

    @Test
    void tinySweepWritesCsvTableAndCharts(@TempDir Path dir) throws Exception {
        Sweep sweep = new Sweep(OsuBenchmark.BCAST, List.of("binomial-p2p", "linear-p2p"), List.of(2, 3),
                List.of("-m", "1:4", "-i", "3", "-x", "1", "--jit-warmup", "4"), true);
        List<String> steps = new ArrayList<>();
        Progress progress = new Progress() {
            @Override
            public void start(int jobs) {
                steps.add("start " + jobs);
            }

            @Override
            public void step(String label) {
                steps.add(label);
            }

            @Override
            public void done() {
                steps.add("done");
            }
        };
        ByteArrayOutputStream messages = new ByteArrayOutputStream();
        List<SweepPoint> points = sweep.run(LOCAL, ExternalRuntime.all(Map.of()), progress,
                new PrintStream(messages, true, StandardCharsets.UTF_8));
        assertEquals(List.of("start 4", "bcast=binomial-p2p np=2", "bcast=binomial-p2p np=3", "bcast=linear-p2p np=2",
                "bcast=linear-p2p np=3", "done"), steps);
        String skipped = messages.toString(StandardCharsets.UTF_8);
        assertTrue(skipped.contains("skipped: OSU_HOME not set ("), skipped);
        assertTrue(skipped.contains("skipped: MPJ_HOME not set ("), skipped);
        assertEquals(2 * 2 * 3, points.size());
        for (SweepPoint p : points) {
            assertTrue(p.row().value() > 0 && p.row().p99Us() > 0 && p.row().lastRankDoneUs() > 0, p.toString());
            assertEquals(3, p.row().iterations());
        }

        Path csv = dir.resolve("osu_bcast.csv");
        Sweep.writeCsv(csv, OsuBenchmark.BCAST, points);
        List<String> lines = Files.readAllLines(csv);
        assertEquals("benchmark,runtime,algorithm,np,size_bytes,avg_latency_us,min_latency_us,max_latency_us,"
                + "iterations,p50_latency_us,p99_latency_us,last_rank_done_us", lines.get(0));
        assertEquals(13, lines.size());
        assertTrue(lines.get(1).startsWith("osu_bcast,mpirun-j,binomial-p2p,2,1,"), lines.get(1));
        assertTrue(lines.get(12).startsWith("osu_bcast,mpirun-j,linear-p2p,3,4,"), lines.get(12));
        for (String l : lines.subList(1, lines.size())) {
            String[] f = l.split(",", -1);
            assertEquals(12, f.length, l);
            for (int i = 5; i < 12; i++) {
                assertTrue(Double.parseDouble(f[i]) > 0, l);
            }
        }

        String table = Sweep.table(OsuBenchmark.BCAST, points);
        assertTrue(table.contains("# np 3"), table);
        assertTrue(table.matches("(?s).*# Size\\s+binomial-p2p\\s+linear-p2p\\n1 .*"), table);

        List<Path> charts = Sweep.writeCharts(dir, OsuBenchmark.BCAST, points);
        assertEquals(List.of(dir.resolve("osu_bcast-np2.png"), dir.resolve("osu_bcast-np3.png"),
                dir.resolve("osu_bcast-by-np.png")), charts);
        for (Path png : charts) {
            PictureChecks.assertNonTrivialPng(png, 800, 400, 4);
        }
    }

    @Test
    void otherRuntimesAreSkippedWithAClearMessage(@TempDir Path dir) {
        OpenMpiOsu ompi = new OpenMpiOsu(Map.of());
        assertEquals("OSU_HOME not set (set it to the OSU Micro-Benchmarks install, e.g. "
                + "/usr/local/libexec/osu-micro-benchmarks, with Open MPI's mpirun on PATH, to compare with Open MPI)",
                ompi.unavailableReason(OsuBenchmark.BCAST));
        assertTrue(new MpjExpress(Map.of()).unavailableReason(OsuBenchmark.BCAST).startsWith("MPJ_HOME not set ("));
        OpenMpiOsu empty = new OpenMpiOsu(Map.of("OSU_HOME", dir.toString()));
        assertEquals("Open MPI: no executable osu_bcast under OSU_HOME=" + dir, empty.unavailableReason(OsuBenchmark.BCAST));
        assertEquals("Open MPI: OSU has no osu_multicast (MPI has no multicast)",
                empty.unavailableReason(OsuBenchmark.MULTICAST));
        assertTrue(new MpjExpress(Map.of("MPJ_HOME", dir.toString())).unavailableReason(OsuBenchmark.BCAST)
                .contains("has no lib/mpj.jar"));
    }

    @Test
    void openMpiRunsTheOsuBinaryFoundUnderOsuHome(@TempDir Path dir) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("libexec/osu-micro-benchmarks/mpi/collective"));
        Path osu = Files.writeString(bin.resolve("osu_bcast"), "#!/bin/sh\n");
        osu.toFile().setExecutable(true);
        Path mpirun = Files.writeString(dir.resolve("fake-mpirun"), "#!/bin/sh\n"
                + "echo '# OSU MPI Broadcast Latency Test v7.4'\n"
                + "echo '# Size       Avg Latency(us)'\n"
                + "echo \"1                       2.50\"\n"
                + "echo \"args: $*\" >&2\n");
        mpirun.toFile().setExecutable(true);
        OpenMpiOsu ompi = new OpenMpiOsu(Map.of("OSU_HOME", dir.toString(), "OSU_MPIRUN", mpirun.toString()));
        assertNull(ompi.unavailableReason(OsuBenchmark.BCAST));
        assertEquals(List.of(mpirun.toString(), "-np", "4", "--oversubscribe", osu.toString(), "-m", "1:4", "-f"),
                ompi.command(OsuBenchmark.BCAST, 4, List.of("-m", "1:4", "--jit-warmup", "9", "--buffer", "direct",
                        "-f")));
        assertEquals(List.of("-m", "1:4"), OpenMpiOsu.osuArgs(List.of("--buffer=array", "-m", "1:4", "--jit-warmup=0")));
        Sweep sweep = new Sweep(OsuBenchmark.BCAST, List.of(), List.of(4), List.of("-m", "1:1"), true);
        List<SweepPoint> points = sweep.run(LOCAL, List.of(ompi), Progress.none(), System.err);
        assertEquals(1, points.size());
        assertEquals("open-mpi", points.get(0).series());
        assertEquals(2.5, points.get(0).row().value());
    }

    @Test
    void mpjGetsOsusNumbers() {
        assertEquals(List.of("osu_bcast", "1", "64", "5", "5", "1", "1", "1"),
                MpjExpress.programArgs(OsuBenchmark.BCAST, List.of("-m", "1:64", "-i", "5", "-x", "1", "-f")));
    }

    @Test
    void progressBarRendersInPlace() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ProgressBar bar = new ProgressBar(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        bar.start(2);
        bar.step("a");
        bar.step("b");
        bar.done();
        // what is drawn between start and done depends on the redraw clock; the last state does not
        String s = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(s.startsWith("\r"), s);
        String last = s.substring(s.lastIndexOf("sweep"));
        assertTrue(last.matches("sweep 100% \\[=+\\] 2/2 \\(.*\\) done\\s*"), last);
        assertTrue(s.endsWith("\n"), "the line is ended: " + s);
    }
}
