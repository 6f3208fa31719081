package io.mpirunj.benchmarks.osu;

import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * What the JVM did beside the benchmark: JIT compile time and garbage collections, read from the management
 * beans, so a comparison can say whether compiler threads or GC pauses shared the cores with its timed rounds.
 */
record RuntimeEvents(long jitMillis, long gcCount, long gcMillis) {

    static RuntimeEvents now() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        long jitMillis = jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
        long count = 0;
        long millis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, gc.getCollectionCount());
            millis += Math.max(0, gc.getCollectionTime());
        }
        return new RuntimeEvents(jitMillis, count, millis);
    }

    RuntimeEvents minus(RuntimeEvents earlier) {
        return new RuntimeEvents(jitMillis - earlier.jitMillis, gcCount - earlier.gcCount, gcMillis - earlier.gcMillis);
    }

    long[] toArray() {
        return new long[] {jitMillis, gcCount, gcMillis};
    }

    /** {@code "JIT 12 ms, 1 GC (3 ms)"} for the array {@link #toArray} gives. */
    static String describe(long[] a) {
        return String.format(Locale.ROOT, "JIT %d ms, %d GC (%d ms)", a[0], a[1], a[2]);
    }
}
