package io.mpirunj.launcher.bench;

import io.mpirunj.benchmarks.osu.OsuBenchmark;
import io.mpirunj.benchmarks.sweep.Sweep;
import io.mpirunj.benchmarks.sweep.SweepPoint;
import io.mpirunj.runtime.spi.CollRules;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * {@code bench ... --coll OP=all --write-rules FILE}: a rules file ({@link CollRules}) from a sweep. For
 * each rank count and message size the fastest mpirun-j algorithm wins: lowest median latency when the
 * sweep ran with {@code -f} (robust to the outliers of a shared machine), else lowest mean; neighbouring
 * sizes with the same winner become one rule, and the ranges are widened to cover every size and rank
 * count (each rank count's rules hold from the previous swept count + 1; the largest count and size
 * have no upper bound). The conditions of the run go into the file's {@code conditions}.
 */
final class RulesFromSweep {
    private RulesFromSweep() {
    }

    /**
     * The rules for {@code op} from {@code points} (only mpirun-j's own rows count), by the median latency if
     * {@code byMedian} (the sweep ran with {@code -f}, so its table showed the medians), else by the mean (the
     * number its table showed; the rows of a collective carry a median either way).
     */
    static List<CollRules.RuleJson> rules(String op, List<SweepPoint> points, boolean byMedian) {
        ToDoubleFunction<SweepPoint> latency = p -> byMedian && p.row().hasFull() && !Double.isNaN(p.row().p50Us())
                ? p.row().p50Us() : p.row().value();
        Map<Integer, Map<Long, List<SweepPoint>>> byNpSize = new TreeMap<>();
        for (SweepPoint p : points) {
            if (p.runtime().equals(Sweep.MPIRUN_J) && p.row().size() >= 0 && !Double.isNaN(latency.applyAsDouble(p))) {
                byNpSize.computeIfAbsent(p.np(), k -> new TreeMap<>())
                        .computeIfAbsent(p.row().size(), k -> new ArrayList<>()).add(p);
            }
        }
        List<CollRules.RuleJson> out = new ArrayList<>();
        List<Integer> nps = new ArrayList<>(byNpSize.keySet());
        for (int i = 0; i < nps.size(); i++) {
            int np = nps.get(i);
            Integer minRanks = i == 0 ? null : nps.get(i - 1) + 1;
            Integer maxRanks = i == nps.size() - 1 ? null : np;
            List<Map.Entry<Long, List<SweepPoint>>> sizes = new ArrayList<>(byNpSize.get(np).entrySet());
            int start = 0;
            while (start < sizes.size()) {
                String winner = fastest(sizes.get(start).getValue(), latency).algorithm();
                int end = start;
                while (end + 1 < sizes.size()
                        && fastest(sizes.get(end + 1).getValue(), latency).algorithm().equals(winner)) {
                    end++;
                }
                Long minBytes = start == 0 ? null : sizes.get(start - 1).getKey() + 1;
                Long maxBytes = end == sizes.size() - 1 ? null : sizes.get(end).getKey();
                out.add(new CollRules.RuleJson(op, minRanks, maxRanks, minBytes, maxBytes, winner, null,
                        note(np, sizes.subList(start, end + 1), latency)));
                start = end + 1;
            }
        }
        return out;
    }

    private static SweepPoint fastest(List<SweepPoint> atOneSize, ToDoubleFunction<SweepPoint> latency) {
        SweepPoint best = null;
        for (SweepPoint p : atOneSize) {
            if (best == null || latency.applyAsDouble(p) < latency.applyAsDouble(best)) {
                best = p;
            }
        }
        return best;
    }

    /** "measured at np 4: 1 B 12.3 us (next binomial 14.1 us); ..." — the evidence behind a rule (medians with -f). */
    private static String note(int np, List<Map.Entry<Long, List<SweepPoint>>> sizes,
            ToDoubleFunction<SweepPoint> latency) {
        StringBuilder b = new StringBuilder("measured at np " + np + ":");
        for (Map.Entry<Long, List<SweepPoint>> s : sizes) {
            List<SweepPoint> sorted = new ArrayList<>(s.getValue());
            sorted.sort(Comparator.comparingDouble(latency));
            b.append(String.format(Locale.ROOT, " %d B %.1f us", s.getKey(), latency.applyAsDouble(sorted.get(0))));
            if (sorted.size() > 1) {
                b.append(String.format(Locale.ROOT, " (next %s %.1f us)", sorted.get(1).algorithm(),
                        latency.applyAsDouble(sorted.get(1))));
            }
            b.append(';');
        }
        b.setLength(b.length() - 1);
        return b.toString();
    }

    /** The file's conditions: what ran, where, and how loaded the machine was. */
    static Map<String, Object> conditions(OsuBenchmark b, List<Integer> nps, boolean threads, List<String> args,
            List<String> algorithms) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("benchmark", b.command());
        c.put("ranks", nps);
        c.put("mode", threads ? "threads" : "processes");
        c.put("options", String.join(" ", args));
        c.put("algorithms", algorithms);
        c.put("date", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        c.put("cores", Runtime.getRuntime().availableProcessors());
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        c.put("loadAverage1min", load < 0 ? "unknown" : String.format(Locale.ROOT, "%.2f", load));
        c.put("os", System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        c.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        return c;
    }

    /**
     * The whole file's text. An {@code existing} file (null: none) keeps its rules for other operations and
     * its conditions for them; this sweep's op gets new rules and conditions.
     */
    static String file(OsuBenchmark b, List<Integer> nps, boolean threads, List<String> args, List<String> algorithms,
            List<SweepPoint> points, String existing, String existingName) {
        List<CollRules.RuleJson> rules = new ArrayList<>();
        Map<String, Object> conditions = new LinkedHashMap<>();
        if (existing != null) {
            CollRules.FileJson old = CollRules.readFile(existing, existingName);
            for (CollRules.RuleJson r : old.rules()) {
                if (!r.op().equals(b.op())) {
                    rules.add(r);
                }
            }
            if (old.conditions() != null) {
                conditions.putAll(old.conditions());
            }
        }
        rules.addAll(rules(b.op(), points, args.contains("-f"))); // BenchCommand.programArgs passes -f for -f/--full
        conditions.put(b.op(), conditions(b, nps, threads, args, algorithms));
        String comment = "written by mpirun-j bench --write-rules: per operation, rank count and message size, the "
                + "algorithm with the lowest latency in one sweep (median with -f, else mean; each rule's note has the "
                + "numbers). "
                + "Wall-clock numbers: the conditions per operation (cores, load average) say how quiet the "
                + "machine was; on a shared machine they are noisy.";
        return CollRules.write(comment, conditions, rules);
    }
}
