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
     * Waits, idle, until this rank's JIT has compiled nothing for {@code quietSteps} steps of {@code stepMillis}
     * in a row (or {@code limitMillis} passed), then meets the other ranks in a barrier; returns whether the
     * limit ended the wait. A warm-up's last pass leaves compilations queued (on a machine with fewer cores
     * than ranks, eight JVMs' C2 threads fall behind); idle ranks give the compiler threads the cores, so the
     * first timed size does not share them. A compile still running shows only when it ends, hence several
     * quiet steps in a row.
     */
    public static boolean settle(Comm world, long stepMillis, int quietSteps, long limitMillis) {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        boolean cut = false;
        if (jit != null && jit.isCompilationTimeMonitoringSupported()) {
            long end = System.nanoTime() + limitMillis * 1_000_000;
            long last = jit.getTotalCompilationTime();
            int quiet = 0;
            while (quiet < quietSteps) {
                if (System.nanoTime() - end >= 0) {
                    cut = true;
                    break;
                }
                try {
                    Thread.sleep(stepMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
                long now = jit.getTotalCompilationTime();
                quiet = now == last ? quiet + 1 : 0;
                last = now;
            }
        }
        world.barrier();
        return cut;
    }
}
