package io.mpirunj.benchmarks;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import io.mpirunj.Op;
import io.mpirunj.collectives.catalogue.AlgorithmCatalogue;
import io.mpirunj.collectives.runner.JobModels;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.runtime.RankContext;
import io.mpirunj.runtime.spi.CollectiveOp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * {@code bcast=auto} against every forced bcast algorithm in one job, in rounds of a shuffled order, so a
 * change in the machine's load hits all of them alike: {@code mpirun-j -np N [--model SPEC] -cp
 * benchmarks/target/classes io.mpirunj.benchmarks.AutoVsForced [SIZES [ALGOS [ROUNDS [raw] [seed=N]]]]} (sizes in bytes,
 * comma-separated; algorithms as {@code --coll bcast=} names, a name twice gives a second copy as a noise
 * control, e.g. {@code auto,auto,binomial-p2p,binomial-p2p}; auto is added first unless listed). Each algorithm runs on its own communicator
 * ({@code Comm.withCollectives}); each round times every algorithm once, in an order shuffled per round
 * (the same seed on every rank; a new one per run unless {@code seed=N} is given, so repeated runs do not
 * repeat one set of orders and its position effects), so no algorithm always follows the same one. A time is OSU's: the mean
 * over ranks of each rank's mean time per bcast from root 0.
 *
 * <p>Prints, per size and algorithm, the median and minimum over rounds and auto's <em>paired</em> ratio to
 * it: the median over rounds of auto's time divided by that algorithm's time in the same round, with a 90 %
 * bootstrap interval (round-to-round load cancels in a ratio of the same round). The verdict line gives
 * auto / fastest forced three ways: the ratio of medians (the old figure), the paired ratio, and a
 * held-out paired ratio (the fastest chosen on the even rounds, the ratio taken on the odd ones), which
 * does not reward the luckiest of many near-tied algorithms; {@code raw} also prints every round's times
 * in the order they ran. Run with {@code --coll-report} to see what
 * auto chose per size class.
 *
 * <p>Several names often run one schedule: at 8 ranks on the TCP model binomial-p2p, binomial, opt-tree,
 * binary-split and binomial-segmented build the very same messages in the same order (a message's send
 * and delivery cost about the same, so every tree rule gives the binomial tree). The fastest of such
 * copies is only the luckiest, so a second verdict pools them: the names whose schedules
 * {@link Schedule#runsLike run alike} for the job's model, ranks and size count as one schedule whose
 * time in a round is the geometric mean of theirs, and auto is compared with the fastest schedule.
 */
public final class AutoVsForced {
    static final String DEFAULT_ALGOS = "binomial-p2p,linear-p2p,sequential,chain,binomial,binary-split,opt-tree,"
            + "fibonacci,chain-pipelined,binomial-segmented";
    private static final int RESAMPLES = 2000;

    private AutoVsForced() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        int[] sizes = Arrays.stream((args.length > 0 ? args[0] : "1024,65536,1048576").split(","))
                .mapToInt(Integer::parseInt).toArray();
        String algos = args.length > 1 && !args[1].isBlank() ? args[1] : DEFAULT_ALGOS;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 15;
        boolean raw = false;
        long[] seed = {System.nanoTime()}; // rank 0's, sent to all: each run samples other orders
        boolean seedGiven = false;
        for (int i = 3; i < args.length; i++) {
            raw |= args[i].equals("raw");
            if (args[i].startsWith("seed=")) {
                seed[0] = Long.parseLong(args[i].substring(5));
                seedGiven = true;
            }
        }
        if (!seedGiven) {
            world.bcast(Buffer.of(seed), 0);
        }
        List<String> specs = new ArrayList<>(List.of(algos.split(",")));
        if (!specs.contains("auto")) {
            specs.add(0, "auto");
        }
        List<String> labels = new ArrayList<>();
        List<Comm> comms = new ArrayList<>();
        for (String n : specs) {
            long copies = labels.stream().filter(l -> l.equals(n) || l.startsWith(n + "#")).count();
            labels.add(copies == 0 ? n : n + "#" + (copies + 1));
            comms.add(world.withCollectives("bcast=" + n));
        }
        CostModel model = JobModels.of(RankContext.current().config().modelSpec());
        byte[] buf = new byte[Arrays.stream(sizes).max().orElse(0)];
        if (world.rank() == 0) {
            System.out.println("# bcast=auto vs forced, np " + world.size() + ", " + rounds
                    + " rounds in shuffled order (seed=" + seed[0] + "), per-round OSU averages (us); "
                    + OsuFormat.conditions());
        }
        for (int size : sizes) {
            int iters = size >= 1 << 20 ? 10 : size >= 64 << 10 ? 50 : 200;
            for (int pass = 0; pass < 2; pass++) {
                for (Comm c : comms) {
                    time(c, buf, size, Math.max(2, iters / 5)); // warm-up; auto's first call of the size simulates
                }
            }
            double[][] t = new double[labels.size()][rounds];
            for (int r = 0; r < rounds; r++) {
                int[] order = shuffled(labels.size(), new SplittableRandom(seed[0] + 31L * size + r)); // same on every rank
                for (int a : order) {
                    t[a][r] = time(comms.get(a), buf, size, iters);
                }
                if (raw && world.rank() == 0) {
                    StringBuilder line = new StringBuilder("# raw " + size + " B round " + r + ":");
                    for (int a : order) {
                        line.append(String.format(" %s=%.1f", labels.get(a), t[a][r]));
                    }
                    System.out.println(line);
                }
            }
            if (world.rank() == 0) {
                print(size, labels, t);
                printBySchedule(size, labels, scheduleGroups(labels, world.size(), size, model), t);
            }
        }
        Mpi.finish();
    }

    /**
     * 0..n-1 in a random order (Fisher-Yates). SplittableRandom, not Random: java.util.Random's first draws
     * from consecutive seeds are correlated, which left the same algorithm last in almost every round.
     */
    private static int[] shuffled(int n, SplittableRandom rnd) {
        int[] order = IntStream.range(0, n).toArray();
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
        return order;
    }

    /** OSU's average: the mean over ranks of each rank's mean time per bcast, in µs. */
    private static double time(Comm c, byte[] buf, int size, int iters) {
        c.barrier();
        long start = System.nanoTime();
        for (int i = 0; i < iters; i++) {
            c.bcast(Buffer.of(buf, 0, size), 0);
        }
        double[] mine = {(System.nanoTime() - start) / 1e3 / iters};
        double[] sum = new double[1];
        c.allreduce(Buffer.of(mine), Buffer.of(sum), Op.SUM);
        return sum[0] / c.size();
    }

    private static void print(int size, List<String> labels, double[][] t) {
        int rounds = t[0].length;
        int auto = labels.indexOf("auto");
        int[] all = IntStream.range(0, rounds).toArray();
        int[] even = IntStream.range(0, rounds).filter(r -> r % 2 == 0).toArray();
        int[] odd = IntStream.range(0, rounds).filter(r -> r % 2 == 1).toArray();
        int best = fastestForced(labels, t, all);
        int bestEven = fastestForced(labels, t, even);
        double[] paired = ratios(t[auto], t[best], all);
        double[] heldOut = ratios(t[auto], t[bestEven], odd);
        System.out.printf("%n# size %d B: auto / fastest forced (%s): medians %.3f, paired %s; held out (%s chosen on "
                + "even rounds, ratio on odd) %s%n", size, labels.get(best), median(t[auto], all) / median(t[best], all),
                withInterval(paired), labels.get(bestEven), withInterval(heldOut));
        System.out.printf("%-22s %12s %12s %26s%n", "# algorithm", "median us", "min us", "auto/this paired [90%]");
        Integer[] rows = IntStream.range(0, labels.size()).boxed().toArray(Integer[]::new);
        Arrays.sort(rows, (x, y) -> Double.compare(median(t[x], all), median(t[y], all)));
        for (int a : rows) {
            double min = Arrays.stream(t[a]).min().orElse(Double.NaN);
            System.out.printf("%-22s %12.1f %12.1f %26s%n", labels.get(a), median(t[a], all), min,
                    a == auto ? "" : withInterval(ratios(t[auto], t[a], all)));
        }
        System.out.flush();
    }

    /**
     * Per label, the index of the first label whose bcast schedule runs alike ({@link Schedule#runsLike}) for
     * {@code ranks}, {@code bytes} and {@code model}: copies (name#2) and different names that build one
     * schedule share an index. auto, and names the catalogue cannot build, stand alone.
     */
    static int[] scheduleGroups(List<String> labels, int ranks, long bytes, CostModel model) {
        int[] group = new int[labels.size()];
        Schedule[] built = new Schedule[labels.size()];
        for (int a = 0; a < labels.size(); a++) {
            group[a] = a;
            String name = labels.get(a).split("#")[0];
            AlgorithmCatalogue.Entry e = name.equals("auto") ? null : AlgorithmCatalogue.find(CollectiveOp.BCAST, name);
            if (e == null || !e.simulable()) {
                continue;
            }
            built[a] = e.build(AlgorithmCatalogue.Shape.of(ranks, 0, bytes, model));
            for (int b = 0; b < a; b++) {
                if (built[b] != null && group[b] == b && built[b].runsLike(built[a])) {
                    group[a] = b;
                    break;
                }
            }
        }
        return group;
    }

    /**
     * The second verdict: forced names that run one schedule ({@code group}) pooled, per round the
     * geometric mean of their times; auto against the fastest schedule, paired and held out.
     */
    private static void printBySchedule(int size, List<String> labels, int[] group, double[][] t) {
        int rounds = t[0].length;
        int auto = labels.indexOf("auto");
        List<String> names = new ArrayList<>();
        List<double[]> pooled = new ArrayList<>();
        for (int g = 0; g < labels.size(); g++) {
            if (group[g] != g || labels.get(g).startsWith("auto")) {
                continue;
            }
            List<String> members = new ArrayList<>();
            double[] logSum = new double[rounds];
            for (int a = 0; a < labels.size(); a++) {
                if (group[a] == g) {
                    members.add(labels.get(a));
                    for (int r = 0; r < rounds; r++) {
                        logSum[r] += Math.log(t[a][r]);
                    }
                }
            }
            int n = members.size();
            names.add(String.join(" = ", members));
            pooled.add(Arrays.stream(logSum).map(x -> Math.exp(x / n)).toArray());
        }
        if (names.size() == labels.stream().filter(l -> !l.startsWith("auto")).count()) {
            return; // every forced name runs a schedule of its own: the verdict above is the one
        }
        double[][] p = pooled.toArray(double[][]::new);
        int[] all = IntStream.range(0, rounds).toArray();
        int[] even = IntStream.range(0, rounds).filter(r -> r % 2 == 0).toArray();
        int[] odd = IntStream.range(0, rounds).filter(r -> r % 2 == 1).toArray();
        int best = fastest(p, all);
        int bestEven = fastest(p, even);
        System.out.printf("# size %d B, names that run one schedule pooled (geometric mean per round): auto / fastest "
                + "schedule (%s): paired %s; held out (%s chosen on even rounds, ratio on odd) %s%n", size,
                names.get(best), withInterval(ratios(t[auto], p[best], all)), names.get(bestEven),
                withInterval(ratios(t[auto], p[bestEven], odd)));
        Integer[] rows = IntStream.range(0, p.length).boxed().toArray(Integer[]::new);
        Arrays.sort(rows, (x, y) -> Double.compare(median(p[x], all), median(p[y], all)));
        int width = names.stream().mapToInt(String::length).max().orElse(1);
        for (int s : rows) {
            System.out.printf("#   %-" + width + "s  median %9.1f us, auto/this paired %s%n", names.get(s),
                    median(p[s], all), withInterval(ratios(t[auto], p[s], all)));
        }
        System.out.flush();
    }

    /** The row of {@code t} with the lowest median over {@code rounds}. */
    private static int fastest(double[][] t, int[] rounds) {
        int best = 0;
        for (int a = 1; a < t.length; a++) {
            if (median(t[a], rounds) < median(t[best], rounds)) {
                best = a;
            }
        }
        return best;
    }

    /** The forced algorithm with the lowest median over {@code rounds} (a second auto, auto#2, is not forced). */
    private static int fastestForced(List<String> labels, double[][] t, int[] rounds) {
        int best = -1;
        for (int a = 0; a < labels.size(); a++) {
            if (!labels.get(a).startsWith("auto") && (best < 0 || median(t[a], rounds) < median(t[best], rounds))) {
                best = a;
            }
        }
        return best;
    }

    private static double[] ratios(double[] num, double[] den, int[] rounds) {
        return Arrays.stream(rounds).mapToDouble(r -> num[r] / den[r]).toArray();
    }

    /** The median of {@code x}, and a 90 % percentile-bootstrap interval of it (fixed seed: reproducible). */
    private static String withInterval(double[] x) {
        if (x.length == 0) {
            return "-";
        }
        Random rnd = new Random(1);
        double[] medians = new double[RESAMPLES];
        double[] sample = new double[x.length];
        for (int b = 0; b < RESAMPLES; b++) {
            for (int i = 0; i < x.length; i++) {
                sample[i] = x[rnd.nextInt(x.length)];
            }
            medians[b] = median(sample);
        }
        Arrays.sort(medians);
        return String.format("%.3f [%.3f, %.3f]", median(x), medians[(int) (0.05 * RESAMPLES)],
                medians[(int) (0.95 * RESAMPLES) - 1]);
    }

    private static double median(double[] x, int[] rounds) {
        return median(Arrays.stream(rounds).mapToDouble(r -> x[r]).toArray());
    }

    private static double median(double[] x) {
        double[] s = x.clone();
        Arrays.sort(s);
        int n = s.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }
}
