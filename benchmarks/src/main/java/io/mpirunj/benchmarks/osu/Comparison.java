package io.mpirunj.benchmarks.osu;

import io.mpirunj.collectives.catalogue.AlgorithmCatalogue;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.runtime.spi.CollRules;
import io.mpirunj.runtime.spi.CollectiveOp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Several algorithms of one collective timed in one job, interleaved ({@code mpirun-j bench ... --interleave}):
 * the statistics and the table of one message size.
 *
 * <p>The job times every algorithm in rounds: each round runs one block of calls per algorithm, in an order
 * shuffled per round, and {@code times[a][r]} is algorithm a's OSU average in round r (mean over ranks of each
 * rank's mean time per call in the block). Blocks have the same length, so an algorithm's mean over rounds is
 * its OSU average over all its timed calls. Two algorithms are compared <em>paired</em>: the geometric mean over
 * rounds of their ratio in the same round, with a 90 % bootstrap interval (rounds resampled). A slow drift of
 * the machine (load, frequency, other jobs) hits both blocks of a round alike and cancels in the ratio; the
 * geometric mean makes {@code a/b} the inverse of {@code b/a}.
 *
 * <p>"The fastest" is the algorithm with the lowest average; which one that is among near-ties is partly luck,
 * so the verdict on {@code auto} is also given <em>held out</em>: the fastest chosen on the even rounds, the
 * ratio taken on the odd ones. Names whose schedules run alike ({@code groups}) are also pooled into one
 * schedule (per round the geometric mean of their times), and auto is compared with the fastest schedule.
 * A name listed twice gets a second copy ({@code name#2}): the spread between copies of one algorithm is the
 * measurement's own floor.
 */
public final class Comparison {
    private static final int RESAMPLES = 2000;

    /** A paired ratio: its point estimate and a 90 % bootstrap interval. */
    public record Estimate(double value, double low, double high) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%.3f [%.3f, %.3f]", value, low, high);
        }
    }

    private final List<String> labels;
    private final double[][] times;
    private final int[] groups;

    /**
     * @param labels one per timed algorithm ({@link #labels})
     * @param times per label, its OSU average (µs) in each round
     * @param groups per label, the index of the first label that runs the same schedule (its own index if none)
     */
    public Comparison(List<String> labels, double[][] times, int[] groups) {
        if (labels.size() != times.length || labels.size() != groups.length || labels.isEmpty()) {
            throw new IllegalArgumentException("one row of times and one group per label");
        }
        int rounds = times[0].length;
        for (double[] row : times) {
            if (row.length != rounds || rounds == 0) {
                throw new IllegalArgumentException("every label needs the same number (> 0) of rounds");
            }
        }
        this.labels = List.copyOf(labels);
        this.times = times;
        this.groups = groups.clone();
    }

    /** The labels of {@code names}: a name's second and later copies are numbered ({@code chain#2}). */
    public static List<String> labels(List<String> names) {
        List<String> out = new ArrayList<>();
        for (String n : names) {
            long copies = names.subList(0, out.size()).stream().filter(n::equals).count();
            out.add(copies == 0 ? n : n + "#" + (copies + 1));
        }
        return out;
    }

    /** The name of a label ({@code chain#2} is {@code chain}). */
    public static String name(String label) {
        int hash = label.indexOf('#');
        return hash < 0 ? label : label.substring(0, hash);
    }

    /**
     * Per label, the index of the first label whose schedule for {@code op} runs alike ({@link Schedule#runsLike})
     * for {@code ranks}, {@code bytes} and {@code model}: copies and different names that build one schedule share
     * an index (at 8 ranks on the TCP model binomial-p2p, binomial, opt-tree, binary-split and binomial-segmented
     * send the same messages in the same order). auto, and names the catalogue cannot build, stand alone.
     */
    public static int[] scheduleGroups(CollectiveOp op, List<String> labels, int ranks, long bytes, CostModel model) {
        int[] group = new int[labels.size()];
        Schedule[] built = new Schedule[labels.size()];
        for (int a = 0; a < labels.size(); a++) {
            group[a] = a;
            String name = name(labels.get(a));
            AlgorithmCatalogue.Entry e = name.equals(CollRules.AUTO) ? null : AlgorithmCatalogue.find(op, name);
            if (e == null || !e.simulable()) {
                continue;
            }
            try {
                built[a] = e.build(AlgorithmCatalogue.Shape.of(ranks, 0, bytes, model));
            } catch (RuntimeException notBuildable) { // e.g. a shape this entry does not take: compared by name only
                continue;
            }
            for (int b = 0; b < a; b++) {
                if (built[b] != null && group[b] == b && built[b].runsLike(built[a])) {
                    group[a] = b;
                    break;
                }
            }
        }
        return group;
    }

    /** {@code 0..n-1} in an order drawn from {@code rnd} (Fisher-Yates): the same on every rank given one seed. */
    public static int[] shuffled(int n, SplittableRandom rnd) {
        int[] order = IntStream.range(0, n).toArray();
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
        return order;
    }

    public int rounds() {
        return times[0].length;
    }

    /** Label {@code a}'s OSU average over all its timed calls (µs). */
    public double average(int a) {
        return mean(times[a], allRounds());
    }

    /** The forced label (not {@code auto} or a copy of it) with the lowest average over {@code rounds}. */
    public int fastest(int[] rounds) {
        return fastestOf(times, forced(), rounds);
    }

    /** {@code a} against {@code b}, paired over every round. */
    public Estimate ratio(int a, int b) {
        return paired(times[a], times[b], allRounds());
    }

    /** Label {@code a} against the fastest forced label chosen on the even rounds, the ratio taken on the odd ones. */
    public Estimate heldOut(int a) {
        return paired(times[a], times[fastest(rounds(0))], rounds(1));
    }

    /** The label chosen as fastest on the even rounds (what {@link #heldOut} compares with). */
    public String heldOutFastest() {
        return labels.get(fastest(rounds(0)));
    }

    /** Whether some forced labels run one schedule (then the pooled verdict says more than the per-name one). */
    public boolean hasSharedSchedules() {
        List<Integer> f = forced();
        return f.stream().map(a -> groups[a]).distinct().count() < f.size();
    }

    /** The forced schedules: per group, its members' labels joined by {@code " = "}. */
    public List<String> scheduleNames() {
        List<String> out = new ArrayList<>();
        for (int g : scheduleLeaders()) {
            List<String> members = new ArrayList<>();
            for (int a : forced()) {
                if (groups[a] == g) {
                    members.add(labels.get(a));
                }
            }
            out.add(String.join(" = ", members));
        }
        return out;
    }

    /** Per forced schedule (in {@link #scheduleNames} order), per round the geometric mean of its members' times. */
    double[][] pooled() {
        List<Integer> leaders = scheduleLeaders();
        double[][] p = new double[leaders.size()][rounds()];
        for (int s = 0; s < leaders.size(); s++) {
            int n = 0;
            for (int a : forced()) {
                if (groups[a] == leaders.get(s)) {
                    n++;
                    for (int r = 0; r < rounds(); r++) {
                        p[s][r] += Math.log(times[a][r]);
                    }
                }
            }
            for (int r = 0; r < rounds(); r++) {
                p[s][r] = Math.exp(p[s][r] / n);
            }
        }
        return p;
    }

    /** Label {@code a} against the fastest schedule chosen on the even rounds, ratio on the odd ones; and its name. */
    public Estimate heldOutSchedule(int a) {
        double[][] p = pooled();
        return paired(times[a], p[fastestSchedule()], rounds(1));
    }

    /** The schedule chosen as fastest on the even rounds (what {@link #heldOutSchedule} compares with). */
    public String heldOutFastestSchedule() {
        return scheduleNames().get(fastestSchedule());
    }

    private int fastestSchedule() {
        double[][] p = pooled();
        return fastestOf(p, IntStream.range(0, p.length).boxed().toList(), rounds(0));
    }

    /**
     * The table of one size: per label its average and its paired ratio to the fastest forced label, fastest
     * first; then, per {@code auto} label, the held-out verdicts. {@code picks} names what each auto label ran
     * (or is null).
     */
    public String table(long size, int callsPerBlock, List<String> picks) {
        StringBuilder sb = new StringBuilder();
        int best = fastest(allRounds());
        sb.append(String.format(Locale.ROOT, "%n# %d B: %d rounds of %d call(s) per algorithm, each round in a shuffled "
                + "order; Ratio = this / %s, geometric mean over rounds of the ratio in one round [90%% bootstrap]; "
                + "Avg Ratio = the ratio of the averages%n", size, rounds(), callsPerBlock, labels.get(best)));
        int width = Math.max(24, labels.stream().mapToInt(String::length).max().orElse(0) + 25);
        sb.append(String.format(Locale.ROOT, "%-" + width + "s%18s%12s   %s%n", "# Algorithm", "Avg Latency(us)",
                "Avg Ratio", "Ratio [90%]"));
        Integer[] rows = IntStream.range(0, labels.size()).boxed().toArray(Integer[]::new);
        Arrays.sort(rows, (x, y) -> Double.compare(average(x), average(y)));
        for (int a : rows) {
            String label = labels.get(a);
            String pick = picks == null ? null : picks.get(a);
            sb.append(String.format(Locale.ROOT, "%-" + width + "s%18.2f%12.3f   %s%n", pick == null ? label
                    : label + " (ran " + pick + ")", average(a), average(a) / average(best),
                    a == best ? "1.000" : ratio(a, best).toString()));
        }
        for (int a = 0; a < labels.size(); a++) {
            if (!isForced(a) && !forced().isEmpty()) {
                sb.append(String.format(Locale.ROOT, "# %s / fastest, held out (%s chosen on even rounds, ratio on "
                        + "odd): %s%n", labels.get(a), heldOutFastest(), heldOut(a)));
                if (hasSharedSchedules()) {
                    sb.append(String.format(Locale.ROOT, "# %s / fastest schedule, held out (%s chosen on even "
                            + "rounds, ratio on odd): %s%n", labels.get(a), heldOutFastestSchedule(),
                            heldOutSchedule(a)));
                }
            }
        }
        if (hasSharedSchedules()) {
            sb.append("# one schedule (the runner sends the same messages in the same order): ");
            sb.append(String.join("; ", scheduleNames().stream().filter(s -> s.contains(" = ")).toList()))
                    .append(System.lineSeparator());
        }
        return sb.toString();
    }

    private boolean isForced(int a) {
        return !name(labels.get(a)).equals(CollRules.AUTO);
    }

    private List<Integer> forced() {
        return IntStream.range(0, labels.size()).filter(this::isForced).boxed().toList();
    }

    private List<Integer> scheduleLeaders() {
        return forced().stream().map(a -> groups[a]).distinct().toList();
    }

    private int[] allRounds() {
        return IntStream.range(0, rounds()).toArray();
    }

    /** The even ({@code parity} 0) or odd rounds; with one round only, that round for both. */
    private int[] rounds(int parity) {
        int[] r = IntStream.range(0, rounds()).filter(i -> i % 2 == parity).toArray();
        return r.length > 0 ? r : allRounds();
    }

    private static int fastestOf(double[][] t, List<Integer> candidates, int[] rounds) {
        int best = -1;
        for (int a : candidates) {
            if (best < 0 || mean(t[a], rounds) < mean(t[best], rounds)) {
                best = a;
            }
        }
        if (best < 0) {
            throw new IllegalStateException("no forced algorithm to compare with");
        }
        return best;
    }

    private static double mean(double[] x, int[] rounds) {
        return Arrays.stream(rounds).mapToDouble(r -> x[r]).average().orElse(Double.NaN);
    }

    /** The geometric mean over {@code rounds} of {@code num[r] / den[r]}, with a 90 % percentile-bootstrap interval. */
    static Estimate paired(double[] num, double[] den, int[] rounds) {
        double[] logs = Arrays.stream(rounds).mapToDouble(r -> Math.log(num[r] / den[r])).toArray();
        double point = Math.exp(Arrays.stream(logs).average().orElse(Double.NaN));
        SplittableRandom rnd = new SplittableRandom(1); // fixed: the same data gives the same interval
        double[] means = new double[RESAMPLES];
        for (int b = 0; b < RESAMPLES; b++) {
            double sum = 0;
            for (int i = 0; i < logs.length; i++) {
                sum += logs[rnd.nextInt(logs.length)];
            }
            means[b] = sum / logs.length;
        }
        Arrays.sort(means);
        return new Estimate(point, Math.exp(means[(int) (0.05 * RESAMPLES)]),
                Math.exp(means[(int) (0.95 * RESAMPLES) - 1]));
    }
}
