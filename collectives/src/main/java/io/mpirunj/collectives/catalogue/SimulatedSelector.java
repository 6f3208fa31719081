package io.mpirunj.collectives.catalogue;

import io.mpirunj.collectives.runner.JobModels;
import io.mpirunj.collectives.sim.Message;
import io.mpirunj.collectives.sim.Simulation;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.spi.CallShape;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveOp;
import io.mpirunj.runtime.spi.ModelSelector;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code --coll op=auto}: builds every schedule-built candidate of the {@link AlgorithmCatalogue} for
 * the call's participants and size class, simulates each on the job's model ({@code --model}, else the
 * collectives' default), and picks the lowest predicted completion; ties go to the earlier catalogue
 * entry. <b>Near-ties</b> (candidates predicted within {@link #NEAR_TIE}, 10 %, of the fastest completion)
 * are decided by a second prediction, the ranks' <b>mean time in the call</b> (a rank returns when it holds
 * its data and its last send has left, t_hold after it started: what OSU's average latency measures): the
 * near-tie with the lowest mean runs; on equal means (names that build one schedule) what the call runs
 * without auto (a built-in threshold's algorithm, else the default), else the earlier catalogue entry. On 8
 * ranks sharing 2 cores every 7-message tree's last rank waits for the same CPU work, so their completions
 * tie; their means do not (a flat tree's leaves finish one by one while the root sends, a binomial tree's
 * inner ranks are woken to forward first), and that is what the runs measure (benchmarks/README.md,
 * "Session 10").
 * The answer is cached per operation, size class, participant count and model, so a job pays the
 * simulations once per size class. Deterministic: every rank computes the same choice.
 *
 * <p>The size simulated is the size class's upper bound (the next power of two), so the choice does not
 * depend on which size of the class came first. Algorithms that need a fabric are not candidates;
 * per-pair models are used as given (communicator rank = model node), not renumbered per root.
 */
public final class SimulatedSelector implements ModelSelector {

    /** The model's unit as the report prints it. */
    public static final String UNIT = "model time";

    /**
     * How close (relative to the fastest completion) a candidate's completion must be for the ranks' mean time
     * in the call to decide instead: the 10 % auto is allowed to lose against the best algorithm, which no
     * model fitted on a shared machine predicts better than (benchmarks/README.md, "Model-driven auto").
     */
    public static final double NEAR_TIE = 0.10;

    /**
     * One candidate's prediction: when its last rank holds the data, and the ranks' mean time in the call
     * ({@link #meanTimeInCall}).
     */
    public record Ranked(String algorithm, double completion, double meanInCall) {
        /** A prediction whose mean time in the call is its completion (every rank finishes together). */
        public Ranked(String algorithm, double completion) {
            this(algorithm, completion, completion);
        }
    }

    /**
     * The candidates are the registry's own unchanging list (shared by the registries derived from it), so
     * they are compared by identity: hashing and comparing the whole list on every call cost ~0.5 µs.
     */
    private record Key(CollectiveOp op, long bytes, int ranks, String model, List<CollectiveAlgorithm> candidates,
            String fallback) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && op == k.op && bytes == k.bytes && ranks == k.ranks
                    && java.util.Objects.equals(model, k.model) && candidates == k.candidates
                    && java.util.Objects.equals(fallback, k.fallback);
        }

        @Override
        public int hashCode() {
            return ((op.hashCode() * 31 + Long.hashCode(bytes)) * 31 + ranks) * 31
                    + java.util.Objects.hashCode(model) + System.identityHashCode(candidates)
                    + java.util.Objects.hashCode(fallback);
        }
    }

    /**
     * How much slower (relative to the fastest completion) a candidate may be predicted and still be tried live
     * ({@link #shortlist}): the built-in TCP model's rms error over this machine's runs was 38 % (benchmarks/README.md,
     * "Session 15"), so a prediction 50 % behind is the least the model can rule out.
     */
    public static final double SHORTLIST_MARGIN = 0.50;
    /**
     * At most this many candidates are tried live: each costs calls on a slower algorithm while auto learns. As
     * many as the catalogue has for one op: names the model predicts alike are not alike when run (the
     * binomial-shaped trees at 1 MiB on 8 processes, predicted equal, measured 1.00-1.11x the fastest).
     */
    public static final int SHORTLIST_MAX = 16;

    /** One resolved call shape: the model's pick and the shortlist it heads (empty when nothing is ranked). */
    private record Choice(Optional<Prediction> pick, List<Prediction> shortlist) {
    }

    private final Map<Key, Choice> cache = new ConcurrentHashMap<>();

    @Override
    public Prediction choose(CollectiveOp op, List<CollectiveAlgorithm> candidates, CollectiveAlgorithm fallback,
            CallShape call, RuntimeConfig config) {
        return resolve(op, candidates, fallback, call, config).pick().orElse(null);
    }

    @Override
    public List<Prediction> shortlist(CollectiveOp op, List<CollectiveAlgorithm> candidates,
            CollectiveAlgorithm fallback, CallShape call, RuntimeConfig config) {
        return resolve(op, candidates, fallback, call, config).shortlist();
    }

    private Choice resolve(CollectiveOp op, List<CollectiveAlgorithm> candidates, CollectiveAlgorithm fallback,
            CallShape call, RuntimeConfig config) {
        long bytes = Math.max(0, CallShape.sizeClass(call.bytes()));
        String spec = config.modelSpec();
        String safe = fallback == null ? null : fallback.name();
        Key key = new Key(op, bytes, call.ranks(), spec, candidates, safe);
        Choice c = cache.get(key);
        if (c == null) {
            Set<String> names = new HashSet<>();
            for (CollectiveAlgorithm a : candidates) {
                names.add(a.name());
            }
            CostModel model = JobModels.of(spec);
            List<Ranked> ranked = rank(op, names, call.ranks(), bytes, model);
            boolean byMeanTime = model.cpus() > 0;
            Optional<Prediction> pick = pick(ranked, safe, byMeanTime);
            c = new Choice(pick, shortlist(ranked, pick.orElse(null), byMeanTime));
            cache.putIfAbsent(key, c);
        }
        return c;
    }

    /**
     * {@code pick} first, then the other candidates predicted within {@link #SHORTLIST_MARGIN} of the fastest
     * completion, by the same measure {@link #pick} decides near-ties with (mean time in the call where ranks share
     * CPUs, else completion; equal predictions in catalogue order), at most {@link #SHORTLIST_MAX}.
     */
    static List<Prediction> shortlist(List<Ranked> ranked, Prediction pick, boolean byMeanTime) {
        if (pick == null) {
            return List.of();
        }
        double fastest = ranked.stream().mapToDouble(Ranked::completion).min().orElseThrow();
        List<Ranked> listed = new ArrayList<>();
        ranked.stream().filter(r -> r.algorithm().equals(pick.algorithm())).findFirst().ifPresent(listed::add);
        ranked.stream().filter(r -> r.completion() <= fastest * (1 + SHORTLIST_MARGIN))
                .sorted(java.util.Comparator.comparingDouble(r -> byMeanTime ? r.meanInCall() : r.completion()))
                .forEachOrdered(r -> {
                    if (listed.size() < SHORTLIST_MAX && !listed.get(0).algorithm().equals(r.algorithm())) {
                        listed.add(r);
                    }
                });
        List<Prediction> out = new ArrayList<>();
        for (Ranked r : listed) {
            out.add(new Prediction(r.algorithm(), r.completion(), UNIT));
        }
        return List.copyOf(out);
    }

    /**
     * The candidate to run among those predicted within {@link #NEAR_TIE} of the fastest completion. Where
     * ranks share CPUs ({@code byMeanTime}: the model has {@code cpus=C}), the one with the lowest mean time in
     * the call (what OSU's average times; completions of trees that do the same CPU work tie there), on equal
     * means {@code fallback} if it is one of them, else the earlier. Elsewhere {@code fallback} if it is a
     * near-tie (what runs without auto, measured no worse within that band), else the fastest. Empty when
     * nothing is ranked.
     */
    static Optional<Prediction> pick(List<Ranked> ranked, String fallback, boolean byMeanTime) {
        Ranked best = null;
        for (Ranked r : ranked) {
            if (best == null || r.completion() < best.completion()) {
                best = r;
            }
        }
        if (best == null) {
            return Optional.empty();
        }
        double nearTie = best.completion() * (1 + NEAR_TIE);
        Ranked leanest = null;
        Ranked safe = null;
        for (Ranked r : ranked) {
            if (r.completion() > nearTie) {
                continue;
            }
            if (leanest == null || r.meanInCall() < leanest.meanInCall()) {
                leanest = r;
            }
            if (r.algorithm().equals(fallback)) {
                safe = r;
            }
        }
        Ranked chosen;
        if (!byMeanTime) {
            chosen = safe != null ? safe : best;
        } else {
            // equal means (names of one schedule) within rounding go to the default
            chosen = safe != null && safe.meanInCall() <= leanest.meanInCall() * (1 + 1e-9) ? safe : leanest;
        }
        return Optional.of(new Prediction(chosen.algorithm(), chosen.completion(), UNIT));
    }

    /**
     * Every candidate among {@code names} that the simulator can evaluate without a fabric, with its
     * predicted completion for {@code ranks} participants and {@code bytes} on {@code model}, in catalogue
     * order. A builder that refuses the shape (e.g. a rank count it does not support) is left out.
     */
    public static List<Ranked> rank(CollectiveOp op, Set<String> names, int ranks, long bytes, CostModel model) {
        List<Ranked> out = new ArrayList<>();
        if (ranks < 2) {
            return out;
        }
        for (AlgorithmCatalogue.Entry e : AlgorithmCatalogue.simulable(op, null, ranks)) {
            if (!names.contains(e.name())) {
                continue;
            }
            Simulation simulation;
            try {
                simulation = Simulator.event(e.build(AlgorithmCatalogue.Shape.of(ranks, 0, bytes, model)), model);
            } catch (IllegalArgumentException | UnsupportedOperationException ex) {
                continue;
            }
            out.add(new Ranked(e.name(), simulation.completion(), meanTimeInCall(simulation, model)));
        }
        return out;
    }

    /**
     * The ranks' mean time in the call: a rank returns when it holds all its data and its last send has
     * left (its start plus t_hold), everyone starting at 0 — per rank what OSU's average latency times.
     */
    public static double meanTimeInCall(Simulation simulation, CostModel model) {
        int ranks = simulation.schedule().ranks();
        double[] returns = new double[ranks];
        for (int r = 0; r < ranks; r++) {
            returns[r] = simulation.rankCompletion(r);
        }
        for (Message m : simulation.messages()) {
            returns[m.src()] = Math.max(returns[m.src()], m.start() + model.tHold(m.src(), m.dst(), m.bytes()));
        }
        double sum = 0;
        for (double t : returns) {
            sum += t;
        }
        return sum / ranks;
    }
}
