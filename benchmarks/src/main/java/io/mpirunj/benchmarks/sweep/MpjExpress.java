package io.mpirunj.benchmarks.sweep;

import io.mpirunj.benchmarks.osu.OsuBenchmark;
import io.mpirunj.benchmarks.osu.OsuOptions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * MPJ Express ({@code $MPJ_HOME}): the OSU loops of osu_latency, osu_bcast, osu_alltoall,
 * osu_barrier and osu_allreduce written against the mpiJava 1.2 API (resource {@code MpjOsu.java.txt}),
 * compiled on first use against {@code $MPJ_HOME/lib/mpj.jar} and run with
 * {@code $MPJ_HOME/bin/mpjrun.sh -np N -dev multicore}. Prints OSU's layout (no P50/P99/Last-Rank).
 */
public final class MpjExpress implements ExternalRuntime {
    public static final String HOME_ENV = "MPJ_HOME";
    static final Set<OsuBenchmark> SUPPORTED = EnumSet.of(OsuBenchmark.LATENCY, OsuBenchmark.BCAST,
            OsuBenchmark.ALLTOALL, OsuBenchmark.BARRIER, OsuBenchmark.ALLREDUCE);

    private final Map<String, String> env;
    private Path classes;

    public MpjExpress(Map<String, String> env) {
        this.env = env;
    }

    @Override
    public String name() {
        return "mpj-express";
    }

    @Override
    public String unavailableReason(OsuBenchmark b) {
        String home = env.get(HOME_ENV);
        if (home == null || home.isBlank()) {
            return "MPJ_HOME not set (set it to an MPJ Express install, with lib/mpj.jar and bin/mpjrun.sh, "
                    + "to compare with MPJ Express)";
        }
        if (!SUPPORTED.contains(b)) {
            return "MPJ Express: no " + b.command() + " port (have: osu_latency, osu_bcast, osu_alltoall, osu_barrier, "
                    + "osu_allreduce)";
        }
        if (!Files.isRegularFile(mpjJar()) || !Files.isRegularFile(mpjrun())) {
            return "MPJ Express: MPJ_HOME=" + home + " has no lib/mpj.jar or bin/mpjrun.sh";
        }
        if (ToolProvider.getSystemJavaCompiler() == null) {
            return "MPJ Express: this JVM has no Java compiler (run mpirun-j on a JDK)";
        }
        return null;
    }

    private Path mpjJar() {
        return Path.of(env.get(HOME_ENV), "lib", "mpj.jar");
    }

    private Path mpjrun() {
        return Path.of(env.get(HOME_ENV), "bin", "mpjrun.sh");
    }

    /** Compiles MpjOsu once into a temporary directory. */
    private synchronized Path classes() throws IOException {
        if (classes == null) {
            Path dir = Files.createTempDirectory("mpirunj-mpj");
            Path src = dir.resolve("MpjOsu.java");
            try (InputStream in = MpjExpress.class.getResourceAsStream("MpjOsu.java.txt")) {
                Files.writeString(src, new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
            JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
            int rc = javac.run(null, null, null, "-cp", mpjJar().toString(), "-d", dir.toString(), src.toString());
            if (rc != 0) {
                throw new IOException("cannot compile the MPJ Express port against " + mpjJar());
            }
            classes = dir;
        }
        return classes;
    }

    /** MpjOsu's positional arguments from our options. */
    static List<String> programArgs(OsuBenchmark b, List<String> args) {
        OsuOptions o = OsuOptions.parse(b, OpenMpiOsu.osuArgs(args).toArray(String[]::new));
        return List.of(b.command(), String.valueOf(o.minBytes()), String.valueOf(o.maxBytes()),
                String.valueOf(o.iterations(1)), String.valueOf(o.iterations(Integer.MAX_VALUE)),
                String.valueOf(o.warmup(1)), String.valueOf(o.warmup(Integer.MAX_VALUE)), o.full() ? "1" : "0");
    }

    @Override
    public String run(OsuBenchmark b, int np, List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(mpjrun().toString(), "-np", String.valueOf(np), "-dev", "multicore",
                "-cp", classes().toString(), "MpjOsu"));
        cmd.addAll(programArgs(b, args));
        return ExternalRuntime.exec(cmd, OpenMpiOsu.TIMEOUT_SECONDS);
    }
}
