package io.mpirunj.benchmarks;

import io.mpirunj.collectives.multicast.MulticastAlgorithms;
import io.mpirunj.collectives.runner.CompiledSchedule;
import io.mpirunj.collectives.runner.ModelProvider;
import io.mpirunj.collectives.runner.ScheduleCache;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import java.util.Arrays;

/**
 * How long building each multicast/bcast schedule takes at scale, and what the schedule cache saves:
 * {@code java -cp ... io.mpirunj.benchmarks.ScheduleBuildTime [ranks [bytes [modelSpec]]]}
 * (defaults: 10,000 ranks, 1 KiB, the IBM SP model).
 *
 * <p>Per algorithm: the first build in this JVM (cold: class loading and interpretation included),
 * the median of {@value #REBUILDS} further builds (warm), the schedule's instruction count, and the
 * mean time of a cached lookup in a {@link ScheduleCache} (what a repeated bcast pays instead).
 */
public final class ScheduleBuildTime {
    private static final int REBUILDS = 5;
    private static final int LOOKUPS = 200_000;

    private ScheduleBuildTime() {
    }

    public static void main(String[] args) {
        int ranks = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        long bytes = args.length > 1 ? Long.parseLong(args[1]) : 1024;
        CostModel model = ModelSpec.parse(args.length > 2 ? args[2] : ModelProvider.DEFAULT_SPEC);
        System.out.println("# schedule build time: bcast over " + ranks + " ranks, root 0, " + bytes + " B, model "
                + model + "; " + OsuFormat.conditions() + ", max heap "
                + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB");
        System.out.println(String.format("%-20s%16s%18s%16s%20s", "# algorithm", "first (ms)", "rebuild (ms)",
                "instructions", "cached lookup (ns)"));
        for (String name : MulticastAlgorithms.names()) {
            long t0 = System.nanoTime();
            Schedule first = MulticastAlgorithms.bcast(name, ranks, 0, bytes, model);
            double firstMs = (System.nanoTime() - t0) / 1e6;
            long[] rebuild = new long[REBUILDS];
            for (int i = 0; i < REBUILDS; i++) {
                long t = System.nanoTime();
                MulticastAlgorithms.bcast(name, ranks, 0, bytes, model);
                rebuild[i] = System.nanoTime() - t;
            }
            Arrays.sort(rebuild);
            ScheduleCache cache = new ScheduleCache();
            ScheduleCache.Key key = new ScheduleCache.Key(Collective.BCAST, name, ranks, 0, bytes, model.toString());
            cache.get(key, () -> first);
            long sink = 0;
            long t1 = System.nanoTime();
            for (int i = 0; i < LOOKUPS; i++) {
                CompiledSchedule c = cache.get(key, () -> {
                    throw new IllegalStateException("cache miss");
                });
                sink += c.schedule().ranks();
            }
            double lookupNs = (System.nanoTime() - t1) / (double) LOOKUPS;
            if (sink != (long) LOOKUPS * ranks) {
                throw new IllegalStateException("unexpected cache contents");
            }
            System.out.println(String.format("%-20s%16.2f%18.2f%16d%20.1f", name, firstMs, rebuild[REBUILDS / 2] / 1e6,
                    first.instructionCount(), lookupNs));
        }
    }
}
