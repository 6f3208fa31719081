package io.mpirunj.benchmarks.startup;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Start-up cost of {@code mpirun-j}: the wall time of {@code mpirun-j -np N io.mpirunj.examples.Hello}
 * from the shell's point of view (launcher JVM start, N ranks start, rendezvous, hello, finish,
 * exit), with the ranks as processes and as threads. Each mode runs once to warm the file cache
 * (and to make the ranks' class-data archive if there is none yet), then {@code reps} times; prints
 * the median, min and max, and the conditions. Beside the wall time it prints the CPU seconds
 * (user + sys) of the whole job, launcher and ranks (Linux: this JVM's reaped children's times),
 * which depend far less on what else the machine is doing.
 *
 * <pre>
 *   java -cp benchmarks/target/classes io.mpirunj.benchmarks.startup.StartupBench [./mpirun-j [np [reps]]]
 *   benchmarks/startup.sh [np [reps]]
 * </pre>
 *
 * Extra launcher options for both modes can be given in {@code STARTUP_BENCH_OPTS} (e.g.
 * {@code -J -XX:+UseSerialGC}); {@code MPIRUNJ_CDS=off} measures without the class-data archive.
 * Targets on a 2-core machine: 16 processes in at most 3 s, 16 threads in at most 1 s.
 */
public final class StartupBench {
    private StartupBench() {
    }

    public static void main(String[] args) throws Exception {
        Path script = Path.of(args.length > 0 ? args[0] : "./mpirun-j").toAbsolutePath().normalize();
        int np = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        int reps = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        if (!Files.isExecutable(script)) {
            System.err.println("StartupBench: " + script + " is not executable (expected: the mpirun-j script)");
            System.exit(2);
        }
        List<String> extra = new ArrayList<>();
        String opts = System.getenv("STARTUP_BENCH_OPTS");
        if (opts != null && !opts.isBlank()) {
            extra.addAll(Arrays.asList(opts.trim().split("\\s+")));
        }
        printConditions(script, np, reps, extra);
        double[][] procs = measure(script, np, reps, false, extra);
        double[][] threads = measure(script, np, reps, true, extra);
        System.out.println();
        System.out.println(String.format(Locale.ROOT, "%-34s %8s %8s %8s %8s   %s", "# mpirun-j -np " + np + " Hello",
                "median s", "min s", "max s", "target s", "CPU s median (min-max)"));
        report("processes", procs, 3.0);
        report("threads (--threads)", threads, 1.0);
    }

    private static void printConditions(Path script, int np, int reps, List<String> extra) {
        Runtime rt = Runtime.getRuntime();
        System.out.println("# mpirun-j start-up benchmark");
        System.out.println("# command: " + script + " -np " + np + " [--threads] " + String.join(" ", extra)
                + (extra.isEmpty() ? "" : " ") + "io.mpirunj.examples.Hello");
        System.out.println("# repetitions: " + reps + " per mode, after 1 warm-up run (not counted)");
        System.out.println("# cores: " + rt.availableProcessors() + ", load average at start: "
                + String.format(Locale.ROOT, "%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()));
        System.out.println("# java: " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name")
                + "), os: " + System.getProperty("os.name") + " " + System.getProperty("os.version"));
        String cds = System.getenv("MPIRUNJ_CDS");
        System.out.println("# rank class-data archive: " + (cds != null && cds.equalsIgnoreCase("off") ? "off (MPIRUNJ_CDS=off)"
                : "on (made by the warm-up run if missing)"));
        System.out.println("# wall time = from starting the script to its exit, as a user sees it");
    }

    /** Wall seconds ([0]) and CPU seconds ([1], NaN where unknown) of each counted run. */
    private static double[][] measure(Path script, int np, int reps, boolean threads, List<String> extra)
            throws IOException, InterruptedException {
        double[] seconds = new double[reps];
        double[] cpu = new double[reps];
        for (int i = -1; i < reps; i++) {
            List<String> cmd = new ArrayList<>(List.of(script.toString(), "-np", Integer.toString(np)));
            if (threads) {
                cmd.add("--threads");
            }
            cmd.addAll(extra);
            cmd.add("io.mpirunj.examples.Hello");
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.INHERIT);
            pb.environment().put("MPIRUNJ_NO_BUILD", "1");
            double cpu0 = childrenCpuSeconds();
            long t0 = System.nanoTime();
            Process p = pb.start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("mpirun-j did not finish within 120 s: " + cmd);
            }
            double s = (System.nanoTime() - t0) / 1e9;
            double c = childrenCpuSeconds() - cpu0;
            if (p.exitValue() != 0) {
                throw new IllegalStateException("mpirun-j exited with status " + p.exitValue() + ": " + cmd);
            }
            if (i >= 0) {
                seconds[i] = s;
                cpu[i] = c;
            }
            System.out.println(String.format(Locale.ROOT, "%s run %s: %.3f s wall, %.2f s CPU",
                    threads ? "threads" : "processes", i < 0 ? "warm-up" : Integer.toString(i + 1), s, c));
        }
        return new double[][] {seconds, cpu};
    }

    /**
     * User + system CPU seconds of this JVM's children that have ended and been waited for
     * ({@code cutime + cstime} of {@code /proc/self/stat}; they include the children's own reaped
     * children, so the launcher's ranks count), or NaN if unknown.
     */
    private static double childrenCpuSeconds() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // after "pid (comm) ": state is field 3, so cutime (16) and cstime (17) are at 13 and 14
            return (Long.parseLong(f[13]) + Long.parseLong(f[14])) / (double) CLOCK_TICKS;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** {@code sysconf(_SC_CLK_TCK)}: 100 on every Linux this runs on. */
    private static final int CLOCK_TICKS = 100;

    private static double median(double[] s) {
        double[] sorted = s.clone();
        Arrays.sort(sorted);
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }

    private static void report(String mode, double[][] wallAndCpu, double target) {
        double[] s = wallAndCpu[0];
        double[] c = wallAndCpu[1];
        double median = median(s);
        System.out.println(String.format(Locale.ROOT, "%-34s %8.3f %8.3f %8.3f %8.1f   %.2f (%.2f-%.2f)%s", mode, median,
                Arrays.stream(s).min().orElse(0), Arrays.stream(s).max().orElse(0), target, median(c),
                Arrays.stream(c).min().orElse(0), Arrays.stream(c).max().orElse(0),
                median <= target ? "" : "  (over target)"));
    }
}
