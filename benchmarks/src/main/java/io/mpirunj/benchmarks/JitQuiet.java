package io.mpirunj.benchmarks;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Op;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * An untimed warm-up repeated until the JIT compilers have nothing left to do: on a loaded 2-core
 * machine C2's threads fall behind, and a size timed while they still compile runs C1's profiling
 * code and shares the cores with the compiler. Every rank runs as many passes (they agree after each
 * pass with an allreduce), so the warm-up's collective traffic stays matched.
 */
public final class JitQuiet {
    private JitQuiet() {
    }

    /** Whether this rank wants another pass, given whether its JIT compiled anything during the last one. */
    @FunctionalInterface
    public interface Decision {
        boolean another(boolean compiled);
    }

    /**
     * Runs {@code pass} until no rank's {@code decision} asks for another; returns whether this rank's JIT
     * still compiled during the last pass (the warm-up was cut short). Where the JVM cannot tell compile
     * time, a pass counts as quiet.
     */
    public static boolean untilQuiet(Comm world, Runnable pass, Decision decision) {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        boolean watch = jit != null && jit.isCompilationTimeMonitoringSupported();
        int[] more = {1};
        int[] anyRank = {1};
        boolean compiled = false;
        while (anyRank[0] != 0) {
            long compiledMillis = watch ? jit.getTotalCompilationTime() : 0;
            pass.run();
            compiled = watch && jit.getTotalCompilationTime() != compiledMillis;
            more[0] = decision.another(compiled) ? 1 : 0;
            world.allreduce(Buffer.of(more), Buffer.of(anyRank), Op.MAX);
        }
        return compiled;
    }

    /**
     * Waits, idle, until every rank's JVM has been quiet for {@code quietSteps} steps of {@code stepMillis} in a
     * row (or {@code limitMillis} passed on some rank); returns whether the limit ended the wait with some JVM
     * still busy. The ranks agree after every step (one small allreduce), so they leave together. Quiet: no
     * compilation ended and the process used under a twentieth of a core (every rank asleep here, what still
     * runs is mostly the compiler threads). A warm-up's last pass leaves compilations queued (on a machine with
     * fewer cores than ranks, eight JVMs' C2 threads fall behind, and one compilation can take seconds of wall
     * time, so the compile time, counted when a compilation ends, does not show it alone); idle ranks give the
     * compiler threads the cores, so the first timed size does not share them.
     */
    public static boolean settle(Comm world, long stepMillis, int quietSteps, long limitMillis) {
        Settled s = settleSteps(world, stepMillis, quietSteps, limitMillis);
        return s.limitReached() && s.busy();
    }

    /**
     * How {@link #settleSteps} ended, the same on every rank: the steps it waited ({@code quietSteps} when every
     * rank's JVM was quiet from the first step on), whether the limit ended the wait, and whether some JVM was busy
     * in the last step.
     */
    public record Settled(int steps, boolean limitReached, boolean busy) {
    }

    /** {@link #settle}, saying how it ended. */
    public static Settled settleSteps(Comm world, long stepMillis, int quietSteps, long limitMillis) {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        boolean watchJit = jit != null && jit.isCompilationTimeMonitoringSupported();
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        com.sun.management.OperatingSystemMXBean cpu = os instanceof com.sun.management.OperatingSystemMXBean c
                && c.getProcessCpuTime() >= 0 ? c : null;
        long end = System.nanoTime() + limitMillis * 1_000_000;
        long lastJit = watchJit ? jit.getTotalCompilationTime() : 0;
        long lastCpu = cpu != null ? cpu.getProcessCpuTime() : 0;
        int[] mine = new int[2]; // {busy, out of time}: every rank decides on every rank's, so all leave together
        int[] any = new int[2];
        int quiet = 0;
        int steps = 0;
        boolean interrupted = false; // set again on return: a set flag would fail the next allreduce on this rank only
        try {
            while (quiet < quietSteps) {
                try {
                    Thread.sleep(stepMillis);
                } catch (InterruptedException e) {
                    interrupted = true; // counts as out of time: the other ranks still get this step
                    end = System.nanoTime();
                }
                long nowJit = watchJit ? jit.getTotalCompilationTime() : 0;
                long nowCpu = cpu != null ? cpu.getProcessCpuTime() : 0;
                mine[0] = nowJit != lastJit || nowCpu - lastCpu >= stepMillis * 1_000_000 / 20 ? 1 : 0;
                mine[1] = System.nanoTime() - end >= 0 ? 1 : 0;
                world.allreduce(Buffer.of(mine), Buffer.of(any), Op.MAX);
                steps++;
                if (any[1] != 0) {
                    return new Settled(steps, true, any[0] != 0);
                }
                quiet = any[0] == 0 ? quiet + 1 : 0;
                lastJit = nowJit;
                // sampled after the allreduce: a rank that waited in it (yielding) must not count that as busy
                lastCpu = cpu != null ? cpu.getProcessCpuTime() : 0;
            }
            return new Settled(steps, false, false);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
