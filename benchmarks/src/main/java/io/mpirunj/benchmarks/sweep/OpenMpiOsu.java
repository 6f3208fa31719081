package io.mpirunj.benchmarks.sweep;

import io.mpirunj.benchmarks.osu.OsuBenchmark;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Open MPI's {@code mpirun} running the OSU Micro-Benchmarks' C programs found under
 * {@code $OSU_HOME} (the install's {@code libexec/osu-micro-benchmarks}, or the build tree: any
 * executable named {@code osu_bcast}, ... below it). {@code $OSU_MPIRUN} replaces {@code mpirun}
 * (e.g. {@code "mpirun --allow-run-as-root"}). osu_multicast has no OSU original.
 */
public final class OpenMpiOsu implements ExternalRuntime {
    public static final String HOME_ENV = "OSU_HOME";
    public static final String MPIRUN_ENV = "OSU_MPIRUN";
    static final long TIMEOUT_SECONDS = 3_600;

    private final Map<String, String> env;

    public OpenMpiOsu(Map<String, String> env) {
        this.env = env;
    }

    @Override
    public String name() {
        return "open-mpi";
    }

    @Override
    public String unavailableReason(OsuBenchmark b) {
        String home = env.get(HOME_ENV);
        if (home == null || home.isBlank()) {
            return "OSU_HOME not set (set it to the OSU Micro-Benchmarks install, e.g. "
                    + "/usr/local/libexec/osu-micro-benchmarks, with Open MPI's mpirun on PATH, to compare with Open MPI)";
        }
        if (b == OsuBenchmark.MULTICAST) {
            return "Open MPI: OSU has no osu_multicast (MPI has no multicast)";
        }
        if (!Files.isDirectory(Path.of(home))) {
            return "OSU_HOME=" + home + " is not a directory";
        }
        if (binary(b).isEmpty()) {
            return "Open MPI: no executable " + b.command() + " under OSU_HOME=" + home;
        }
        if (mpirun().size() == 1 && !onPath(mpirun().get(0))) {
            return "Open MPI: mpirun not found on PATH (or set OSU_MPIRUN)";
        }
        return null;
    }

    /** The OSU executable for {@code b} under OSU_HOME, if any. */
    Optional<Path> binary(OsuBenchmark b) {
        try (Stream<Path> files = Files.walk(Path.of(env.get(HOME_ENV)), 8)) {
            return files.filter(p -> p.getFileName().toString().equals(b.command()) && Files.isRegularFile(p)
                    && Files.isExecutable(p)).findFirst();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private List<String> mpirun() {
        String m = env.get(MPIRUN_ENV);
        return m == null || m.isBlank() ? List.of("mpirun") : List.of(m.trim().split("\\s+"));
    }

    private boolean onPath(String exe) {
        if (exe.contains(File.separator)) {
            return Files.isExecutable(Path.of(exe));
        }
        String path = env.getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, exe))) {
                return true;
            }
        }
        return false;
    }

    /** The command line: {@code mpirun -np N --oversubscribe OSU_BINARY ARGS}. */
    List<String> command(OsuBenchmark b, int np, List<String> args) {
        List<String> cmd = new ArrayList<>(mpirun());
        cmd.addAll(List.of("-np", String.valueOf(np), "--oversubscribe", binary(b).orElseThrow().toString()));
        List<String> a = osuArgs(args);
        if (b.pointToPoint()) {
            a.remove("-f"); // OSU's point-to-point tests have no -f
        }
        cmd.addAll(a);
        return cmd;
    }

    /** Options of ours, with a value, that OSU's binaries do not know. */
    private static final List<String> OURS_ONLY = List.of("--jit-warmup", "--buffer");

    /**
     * Our options minus those OSU's binaries do not know ({@code --jit-warmup}, {@code --buffer}: OSU's C programs
     * use malloc'd memory, the counterpart of {@code --buffer direct}; -f on point-to-point tests).
     */
    static List<String> osuArgs(List<String> args) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (OURS_ONLY.contains(a)) {
                i++;
            } else if (OURS_ONLY.stream().noneMatch(o -> a.startsWith(o + "="))) {
                out.add(a);
            }
        }
        return out;
    }

    @Override
    public String run(OsuBenchmark b, int np, List<String> args) throws Exception {
        return ExternalRuntime.exec(command(b, np, args), TIMEOUT_SECONDS);
    }
}
