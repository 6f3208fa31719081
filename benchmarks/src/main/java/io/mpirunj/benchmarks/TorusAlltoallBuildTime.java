package io.mpirunj.benchmarks;

import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.torus.AlltoallAudit;
import io.mpirunj.collectives.torus.TorusAlltoalls;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;

/**
 * Building and auditing a torus all-to-all at scale:
 * {@code java -cp ... io.mpirunj.benchmarks.TorusAlltoallBuildTime [algorithm [N ...]]} (defaults:
 * sem, N = 16 32 64). Per N: wall and CPU time of the build and of {@link AlltoallAudit} (every
 * block delivered exactly once, plus the cost counts), the message count, and the heap's peak so
 * far. A 64×64 torus has 4,096 ranks and 16.7 M blocks.
 */
public final class TorusAlltoallBuildTime {

    private TorusAlltoallBuildTime() {
    }

    public static void main(String[] args) {
        String name = args.length > 0 ? args[0] : "sem";
        int[] sides = args.length > 1 ? java.util.Arrays.stream(args, 1, args.length).mapToInt(Integer::parseInt).toArray()
                : new int[] {16, 32, 64};
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        System.out.println("# " + name + " all-to-all: build + audit; " + OsuFormat.conditions() + ", max heap "
                + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB");
        System.out.println(String.format("%-6s%10s%12s%12s%12s%12s%10s%14s", "# N", "blocks", "build (ms)", "build cpu",
                "audit (ms)", "audit cpu", "messages", "peak heap MiB"));
        for (int n : sides) {
            long wall0 = System.nanoTime();
            long cpu0 = threads.getCurrentThreadCpuTime();
            Schedule s = TorusAlltoalls.build(name, n, 1);
            long wall1 = System.nanoTime();
            long cpu1 = threads.getCurrentThreadCpuTime();
            AlltoallAudit audit = AlltoallAudit.of(s);
            long wall2 = System.nanoTime();
            long cpu2 = threads.getCurrentThreadCpuTime();
            if (!audit.ok()) {
                throw new IllegalStateException(s + ": " + audit.errors().get(0));
            }
            System.out.println(String.format("%-6d%10d%12.0f%12.0f%12.0f%12.0f%10d%14d", n, (long) n * n * n * n,
                    (wall1 - wall0) / 1e6, (cpu1 - cpu0) / 1e6, (wall2 - wall1) / 1e6, (cpu2 - cpu1) / 1e6,
                    s.instructionCount() / 2, peakHeapMiB()));
        }
    }

    private static long peakHeapMiB() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return peak >> 20;
    }
}
