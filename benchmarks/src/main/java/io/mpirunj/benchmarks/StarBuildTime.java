package io.mpirunj.benchmarks;

import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.star.StarBroadcasts;
import io.mpirunj.collectives.star.StarScheduleCheck;
import io.mpirunj.fabric.placement.Placement;
import io.mpirunj.fabric.topology.StarGraph;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * How long the star-graph broadcasts take to build and verify at scale:
 * {@code java -cp ... io.mpirunj.benchmarks.StarBuildTime [n [repeats]]} (defaults: S_9, 362,880
 * nodes; 3 repeats). Per algorithm: the median wall and CPU time of building the schedule and of
 * {@link StarScheduleCheck#check(Schedule, StarGraph, int[], boolean)} (the star check with its own
 * delivery checks), the steps and the longest path. The first repeat includes JIT warm-up. CPU time
 * is this thread's, so it is less disturbed by other load on the machine than wall time.
 */
public final class StarBuildTime {

    private StarBuildTime() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 9;
        int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        StarGraph star = new StarGraph(n);
        int[] nodeOf = Placement.identity(star.nodes());
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        System.out.println("# star broadcast build + verify on S_" + n + " (" + star.nodes() + " nodes), source 12...n, "
                + repeats + " repeats (median); " + OsuFormat.conditions() + ", load average "
                + ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage() + ", max heap "
                + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB");
        System.out.println(String.format("%-12s%14s%14s%14s%14s%16s%8s%10s", "# algorithm", "build (ms)", "build cpu",
                "verify (ms)", "verify cpu", "total cpu (ms)", "steps", "max hops"));
        for (String name : StarBroadcasts.NAMES) {
            double[] build = new double[repeats];
            double[] buildCpu = new double[repeats];
            double[] verify = new double[repeats];
            double[] verifyCpu = new double[repeats];
            StarScheduleCheck.Report report = null;
            for (int i = 0; i < repeats; i++) {
                long w0 = System.nanoTime();
                long c0 = cpu.getCurrentThreadCpuTime();
                Schedule schedule = StarBroadcasts.build(name, star.nodes(), 0, 1024, star, nodeOf);
                long w1 = System.nanoTime();
                long c1 = cpu.getCurrentThreadCpuTime();
                report = StarScheduleCheck.check(schedule, star, nodeOf, false);
                long w2 = System.nanoTime();
                long c2 = cpu.getCurrentThreadCpuTime();
                if (!report.ok()) {
                    throw new IllegalStateException(name + " on S_" + n + ": " + report.problems());
                }
                build[i] = (w1 - w0) / 1e6;
                buildCpu[i] = (c1 - c0) / 1e6;
                verify[i] = (w2 - w1) / 1e6;
                verifyCpu[i] = (c2 - c1) / 1e6;
            }
            System.out.println(String.format("%-12s%14.0f%14.0f%14.0f%14.0f%16.0f%8d%10d", name, median(build),
                    median(buildCpu), median(verify), median(verifyCpu), median(buildCpu) + median(verifyCpu),
                    report.steps(), report.maxHops()));
        }
    }

    private static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v[v.length / 2];
    }
}
