package io.mpirunj.runtime.comm;

import io.mpirunj.runtime.JvmActivity;
import io.mpirunj.runtime.spi.Selection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * {@code auto}'s live trial for one operation and size class on one communicator ({@code --coll-tune ROUNDS}):
 * the model ranks the candidates, but on a shared machine it cannot tell apart those it predicts within
 * {@code SimulatedSelector.SHORTLIST_MARGIN} of each other (benchmarks/README.md, "Session 15": at 1 MiB on 8
 * processes it ran the flat tree, 22 % behind the fastest tree), so the shortlist is run for real, as STAR-MPI
 * does. Each candidate runs a block of calls in a row (an untimed one, then timed ones), the candidates one after
 * another and then again in the reverse order, so a drift during the trial (the JIT
 * compiling, another job starting) weighs on all alike. Blocks, not one call each in turn: calls of one algorithm
 * in a row are what a program makes, and alternating them measured otherwise (benchmarks/README.md, "Session 16").
 * Each rank takes its mean time in the call per candidate without its slowest quarter of calls (a preemption, a
 * compile or a collection is no trait of an algorithm), the ranks add their means (an allreduce the caller makes: {@link #measured} in,
 * {@link #decide} with the sums), and the least sum (after the first trial, the least over the quiet trials since
 * the first, below) runs from then on.
 *
 * <p>The trial is made {@link #TRIALS} times (more if some were not quiet, below), each once the size class has had {@link #SPACING} times the calls it
 * had when the previous one ended, so a choice made while the JIT was still compiling is revisited on warm code.
 * The first trial runs on cold code (a tree whose code is compiled later looks slower than it is), so it decides
 * only what runs until the second and leaves out only the candidates twice as slow as the fastest
 * ({@link #KEEP_COLD}); from the second on, only those within {@link #KEEP} of the fastest are tried again (always
 * at least the two fastest), with blocks twice as long each time: the later trials run on warm code and decide
 * between close candidates, which takes more calls to tell apart (at 1 MiB on 8 processes the trees differ by
 * 2-10 %, a call by 20 %). After the last nothing is timed.
 *
 * <p>A trial counts as warm only when the JVMs were quiet during it: each rank adds the time its JVM spent compiling
 * and collecting during the trial ({@link JvmActivity}) to the allreduce, and a trial in which that came to more
 * than {@link #QUIET} of the ranks' time ({@link #quiet}) decides only provisionally, as the first one does: at 1 KiB
 * on 8 processes, trials made during bench's JIT warm-up, weighed as warm, once chose a tree 1.2x the fastest
 * (benchmarks/README.md, "Session 16"). Such a trial is made again, up to {@link #MAX_TRIALS} trials in all; the
 * busy trials are weighed together among themselves until a quiet one is, so when none is (a program that keeps
 * compiling or collecting) the choice still rests on every trial after the first.
 *
 * <p>Every rank makes the same collective calls in the same order, so every rank's trial is at the same call
 * when it runs a candidate, and the summed means (whole nanoseconds, added exactly) give every rank the same
 * answer. Not thread-safe: a communicator's blocking collectives are called one at a time.
 */
final class AutoTrial {

    /** How many times the trial is made when every one after the first is quiet: the first and three warm ones. */
    static final int TRIALS = 4;
    /** The next trial starts when the size class's call count is this many times the count the last one ended at. */
    static final int SPACING = 2;
    /** A candidate is tried again when its sum came within this fraction of the fastest's (from the second trial). */
    static final double KEEP = 0.25;
    /**
     * After the first trial, on cold code, only what came out twice as slow as the fastest is left out: a tree whose
     * code is compiled later looks slower than it is there, but not by half (benchmarks/README.md, "Session 16").
     */
    static final double KEEP_COLD = 1.0;
    /**
     * A trial is quiet when the ranks' JVMs spent at most this fraction of its time compiling and collecting (compile
     * and GC pause time, summed over the ranks, against the ranks' time in the trial), plus {@link #GRAIN_MICROS} a
     * rank.
     */
    static final double QUIET = 0.05;
    /**
     * The management beans count whole milliseconds, so a rank's reading of 1 ms may be less: allowed per rank
     * beside {@link #QUIET}, so a short trial is not busy for one rounded millisecond.
     */
    static final long GRAIN_MICROS = 1_000;
    /** Trials in all at the most: those after the first that were not quiet are made again until this many. */
    static final int MAX_TRIALS = 6;

    /** The candidates of the running (or next) trial, the model's order kept. */
    private List<Selection> candidates;
    private final int rounds;
    /** Per candidate, its timed calls of the running trial on this rank, in nanoseconds. */
    private long[][] samples;
    /** Per candidate, the summed means of the quiet trials after the first, each times its timed calls per candidate. */
    private long[] warm;
    private long calls;
    private long trialStart;
    private int trialsDone;
    /**
     * Per candidate, the summed means of the later trials that were not quiet, each times its timed calls: the choice
     * until a quiet trial has been weighed.
     */
    private long[] provisional;
    /**
     * The trial decided last through {@link #decide(long[])}, for the log ({@link #lastMeasured}): its candidates,
     * the ranks' sums of {@link #measured} and how it counted.
     */
    private List<Selection> lastTried;
    private long[] lastSums;
    private String lastCounted;
    /** Trials after the first that were quiet, weighed into {@link #warm}. */
    private int warmTrials;
    /** The JVM's compile and collection time so far, in milliseconds ({@link JvmActivity#busyMillis}). */
    private final LongSupplier busyMillis;
    /**
     * At the start of the running trial: {@link #busyMillis} and System.nanoTime(); at its end, what each grew by, in
     * microseconds.
     */
    private long busyAtStart;
    private long wallAtStart;
    private long busyDuring;
    private long wallDuring;
    /** Volatile: a non-blocking call may read it on another thread than the one making the blocking calls. */
    private volatile Selection chosen;

    /**
     * @param candidates the model's shortlist, its pick first (two or more)
     * @param rounds     timed calls of each block in the first trial; 2, 4 and 8 times as many in the next (at least 1)
     */
    AutoTrial(List<Selection> candidates, int rounds) {
        this(candidates, rounds, () -> JvmActivity.now().busyMillis());
    }

    /** As {@link #AutoTrial(List, int)}, reading the JVM's compile and collection milliseconds from {@code busyMillis}. */
    AutoTrial(List<Selection> candidates, int rounds, LongSupplier busyMillis) {
        if (candidates.size() < 2 || rounds < 1) {
            throw new IllegalArgumentException("a trial needs two candidates and a round: " + candidates + ", " + rounds);
        }
        this.candidates = List.copyOf(candidates);
        this.rounds = rounds;
        this.busyMillis = busyMillis;
        this.samples = new long[candidates.size()][2 * timed()];
        this.warm = new long[candidates.size()];
        this.provisional = new long[candidates.size()];
        this.chosen = candidates.get(0);
    }

    /** Calls in one block of the running trial: an untimed one, then the timed ones, twice as many each trial. */
    private int block() {
        return timed() + 1;
    }

    /**
     * Timed calls per block in the running trial: {@code rounds} in the first, twice as many in each next one. The
     * first trial's length also sets when the next ones come (each after twice the calls): with a quarter of
     * {@code rounds} in the first, the second and third fell into bench's JIT warm-up and auto ran 1.2-1.5x the
     * fastest at 1 KiB and 64 KiB (benchmarks/README.md, "Session 16").
     */
    private int timed() {
        return rounds << Math.min(trialsDone, TRIALS - 1);
    }

    /** Calls in the running trial: two blocks per candidate. */
    private long length() {
        return 2L * candidates.size() * block();
    }

    /** Position of the next call in the running trial, or -1 when no trial is running. */
    private long position() {
        long i = calls - trialStart;
        return learning() && i >= 0 && i < length() ? i : -1;
    }

    /** The candidate the call at {@code position} of a trial runs: blocks in order, then in the reverse order. */
    private int candidateAt(long position) {
        int n = candidates.size();
        int b = (int) (position / block());
        return b < n ? b : 2 * n - 1 - b;
    }

    /** What the next call runs: a candidate in turn during a trial (as {@code auto-trial}), else the choice. */
    Selection next() {
        long i = position();
        return i < 0 ? chosen : candidates.get(candidateAt(i)).from(Selection.Source.AUTO_TRIAL);
    }

    /** The choice so far, for calls that take no part in the trial (non-blocking ones): nothing advances. */
    Selection current() {
        return chosen;
    }

    /**
     * Counts the call {@link #next} answered, which took {@code nanos} on this rank.
     *
     * @return true when it ended a trial: the caller must now agree on the result with the other ranks
     *     ({@link #measured}, then {@link #decide})
     */
    boolean record(long nanos) {
        long i = position();
        calls++;
        if (i < 0) {
            return false;
        }
        if (i == 0) { // after the first, untimed call
            busyAtStart = busyMillis.getAsLong();
            wallAtStart = System.nanoTime();
        }
        int inBlock = (int) (i % block());
        if (inBlock > 0) {
            boolean second = i / block() >= candidates.size();
            samples[candidateAt(i)][(second ? timed() : 0) + inBlock - 1] = nanos;
        }
        if (i < length() - 1) {
            return false;
        }
        busyDuring = (busyMillis.getAsLong() - busyAtStart) * 1_000;
        wallDuring = (System.nanoTime() - wallAtStart) / 1_000;
        return true;
    }

    /**
     * This rank's {@link #means} followed by the microseconds its JVM spent compiling and collecting during the trial,
     * the trial's microseconds and 1 (the ranks' sum of it is their number): what the ranks add up, and
     * {@link #decide} takes the sums of.
     */
    long[] measured() {
        long[] means = means();
        long[] out = Arrays.copyOf(means, means.length + 3);
        out[means.length] = busyDuring;
        out[means.length + 1] = wallDuring;
        out[means.length + 2] = 1;
        return out;
    }

    /**
     * True when the summed compile and collection time is at most {@link #QUIET} of the summed trial time plus
     * {@link #GRAIN_MICROS} a rank.
     */
    static boolean quiet(long busyMicros, long wallMicros, long ranks) {
        return busyMicros <= QUIET * wallMicros + GRAIN_MICROS * ranks;
    }

    /**
     * This rank's mean time per candidate in the trial just ended without its slowest quarter of calls (at least
     * the slowest one), in nanoseconds, in the order of {@link #candidates}. A JIT compile or a collection in
     * another rank's JVM stretches a run of calls in one block; a candidate's blocks otherwise differed by 30-50 %
     * where the job's own rows differed by 8 % (64 KiB on 8 processes, benchmarks/README.md, "Session 16").
     */
    long[] means() {
        long[] out = new long[samples.length];
        for (int c = 0; c < samples.length; c++) {
            long[] sorted = samples[c].clone();
            Arrays.sort(sorted);
            int kept = sorted.length - Math.max(1, sorted.length / 4);
            long sum = 0;
            for (int i = 0; i < kept; i++) {
                sum += sorted[i];
            }
            out[c] = sum / kept;
        }
        return out;
    }

    /**
     * Decides on the ranks' sums of {@link #measured}: their means, then their busy and trial microseconds and
     * their number ({@link #quiet} says whether the trial counts as warm).
     *
     * @return true when the trial was quiet
     */
    boolean decide(long[] summed) {
        int n = summed.length - 3;
        boolean quiet = quiet(summed[n], summed[n + 1], summed[n + 2]);
        String counted = trialsDone == 0 ? "first" : quiet ? "quiet" : warmTrials > 0 ? "busy: ignored"
                : "busy: provisional";
        lastTried = candidates;
        lastSums = summed.clone();
        lastCounted = counted;
        decide(Arrays.copyOf(summed, n), quiet);
        return quiet;
    }

    /**
     * Weighs in this trial's {@code summed} (every rank's {@link #means} added) and takes the candidate with the least
     * weight (on a tie the earlier, the model's order). The first trial (cold code) decides on its own sums, and the
     * later ones that were not {@code quiet} on their sums weighed together (as the quiet ones below), until a quiet
     * trial has been weighed (a later busy one then changes nothing); both leave out only what was
     * {@link #KEEP_COLD} slower. A quiet trial after the first adds its sums, weighed by its timed calls per
     * candidate, to those of the quiet trials before it, so one disturbed trial does not overturn what the others
     * measured (at 1 KiB on 8 processes, a fourth trial once found the flat and the
     * binomial tree 1.5 % apart where the second and third had found 29 % and 11 %), takes the least of the weights
     * and keeps for the next trial those within {@link #KEEP} (at least the two least). Schedules the next trial.
     */
    void decide(long[] summed, boolean quiet) {
        boolean warmTrial = trialsDone > 0 && quiet;
        if (trialsDone == 0) {
            keepClosest(summed, KEEP_COLD);
        } else if (warmTrial) {
            addWeighed(warm, summed);
            keepClosest(warm, KEEP);
        } else if (warmTrials == 0) {
            addWeighed(provisional, summed);
            keepClosest(provisional, KEEP_COLD);
        }
        warmTrials += warmTrial ? 1 : 0;
        trialsDone++;
        samples = learning() ? new long[candidates.size()][2 * timed()] : null;
        trialStart = calls * SPACING;
    }

    /** Adds {@code summed}, weighed by this trial's timed calls per candidate, to {@code weights}. */
    private void addWeighed(long[] weights, long[] summed) {
        for (int c = 0; c < summed.length; c++) {
            weights[c] += summed[c] * timed();
        }
    }

    /** Chooses the least {@code weight} (the earlier on a tie) and keeps the candidates within {@code keep} of it. */
    private void keepClosest(long[] weight, double keep) {
        Integer[] order = new Integer[weight.length];
        for (int c = 0; c < order.length; c++) {
            order[c] = c;
        }
        Arrays.sort(order, (a, b) -> weight[a] != weight[b] ? Long.compare(weight[a], weight[b]) : a - b);
        chosen = candidates.get(order[0]).from(Selection.Source.AUTO_MEASURED);
        List<Integer> places = Arrays.asList(order);
        List<Selection> next = new ArrayList<>();
        List<Integer> kept = new ArrayList<>();
        for (int c = 0; c < candidates.size(); c++) { // in the model's order
            if (places.indexOf(c) < 2 || weight[c] <= weight[order[0]] * (1 + keep)) {
                next.add(candidates.get(c));
                kept.add(c);
            }
        }
        candidates = List.copyOf(next);
        warm = kept.stream().mapToLong(c -> warm[c]).toArray();
        provisional = kept.stream().mapToLong(c -> provisional[c]).toArray();
    }

    /** The candidates of the running trial, or of the next one. */
    List<Selection> candidates() {
        return candidates;
    }

    /** How many trials have been decided. */
    int trialsDone() {
        return trialsDone;
    }

    /**
     * What the trial decided last (through {@link #decide(long[])}) measured, for the log: each candidate's mean
     * microseconds per call over the ranks, how it counted ({@code first}, {@code quiet}, {@code busy: provisional} or
     * {@code busy: ignored}) and the ranks' summed JIT+GC and trial milliseconds in it.
     */
    String lastMeasured() {
        int n = lastTried.size();
        StringBuilder means = new StringBuilder();
        for (int c = 0; c < n; c++) {
            means.append(c == 0 ? "" : ", ").append(lastTried.get(c).algorithm().name())
                    .append(String.format(java.util.Locale.ROOT, " %.1f", lastSums[c] / 1e3 / lastSums[n + 2]));
        }
        return String.format(java.util.Locale.ROOT, "mean us per call (%s); JIT+GC %d ms of %d ms (%s)", means,
                lastSums[n] / 1_000, lastSums[n + 1] / 1_000, lastCounted);
    }

    /** How many trials after the first were quiet and weighed. */
    int warmTrials() {
        return warmTrials;
    }

    /** True until {@link #TRIALS} - 1 quiet trials after the first, or {@link #MAX_TRIALS} in all, have been decided. */
    boolean learning() {
        return warmTrials < TRIALS - 1 && trialsDone < MAX_TRIALS;
    }

    /** Calls made so far in this size class. */
    long calls() {
        return calls;
    }
}
