package io.mpirunj.runtime;

import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * What this JVM did beside the program so far: JIT compile time and garbage collection pauses, read from the
 * management beans (a concurrent collector's cycle beans, which run beside the program and would count its pauses
 * twice, are left out). A difference of two readings says whether compiler threads or GC pauses shared the cores with what ran
 * between them: {@code auto}'s live trials count a trial as warm only when little of it went to these, and the
 * benchmarks print them beside their timed rounds.
 *
 * @param jitMillis the compiler threads' total time (summed over threads, so it may exceed the wall time)
 * @param gcCount   collection pauses
 * @param gcMillis  their accumulated time
 */
public record JvmActivity(long jitMillis, long gcCount, long gcMillis) {

    private static final CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();
    private static final boolean JIT_TIMED = JIT != null && JIT.isCompilationTimeMonitoringSupported();

    /** The readings now. */
    public static JvmActivity now() {
        long count = 0;
        long millis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (concurrent(gc.getName())) {
                continue;
            }
            count += Math.max(0, gc.getCollectionCount());
            millis += Math.max(0, gc.getCollectionTime());
        }
        return new JvmActivity(JIT_TIMED ? JIT.getTotalCompilationTime() : 0, count, millis);
    }

    /**
     * ZGC's and Shenandoah's "Cycles" beans (their "Pauses" beans hold the pauses) and G1's "Concurrent GC" (JDK 20+)
     * time work done beside the program.
     */
    private static boolean concurrent(String beanName) {
        return beanName.contains("Cycles") || beanName.contains("Concurrent");
    }

    /** What happened since {@code earlier}. */
    public JvmActivity minus(JvmActivity earlier) {
        return new JvmActivity(jitMillis - earlier.jitMillis, gcCount - earlier.gcCount, gcMillis - earlier.gcMillis);
    }

    /** Compile and collection time together: the time the JVM took beside the program, in milliseconds. */
    public long busyMillis() {
        return jitMillis + gcMillis;
    }

    /** The three readings, for a reduction across ranks. */
    public long[] toArray() {
        return new long[] {jitMillis, gcCount, gcMillis};
    }

    /** {@code "JIT 12 ms, 1 GC (3 ms)"} for an array {@link #toArray} gave (or a reduction of such arrays). */
    public static String describe(long[] a) {
        return String.format(Locale.ROOT, "JIT %d ms, %d GC (%d ms)", a[0], a[1], a[2]);
    }
}
