package io.mpirunj.collectives.catalogue;

import io.mpirunj.collectives.runner.JobModels;
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
 * entry. <b>Near-ties go to what the call runs without auto</b> (a built-in threshold's algorithm, else the
 * default): when that is predicted within {@link #NEAR_TIE} (10 %) of the fastest, auto runs it, since a
 * model cannot rank candidates closer than its own error (8 ranks sharing 2 cores are bound by the work,
 * not the depth, of a tree: the TCP model puts the bcast trees within 0-3 % of each other, and two runs of
 * one algorithm differ by 10-40 % there).
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
     * How close (relative to the fastest prediction) the default's prediction must be for auto to run the
     * default instead: the 10 % auto is allowed to lose against the best algorithm, which no model fitted
     * on a shared machine predicts better than (benchmarks/README.md, "Model-driven auto").
     */
    public static final double NEAR_TIE = 0.10;

    /** One candidate's prediction. */
    public record Ranked(String algorithm, double completion) {
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

    private final Map<Key, Optional<Prediction>> cache = new ConcurrentHashMap<>();

    @Override
    public Prediction choose(CollectiveOp op, List<CollectiveAlgorithm> candidates, CollectiveAlgorithm fallback,
            CallShape call, RuntimeConfig config) {
        long bytes = Math.max(0, CallShape.sizeClass(call.bytes()));
        String spec = config.modelSpec();
        String safe = fallback == null ? null : fallback.name();
        Key key = new Key(op, bytes, call.ranks(), spec, candidates, safe);
        Optional<Prediction> p = cache.get(key);
        if (p == null) {
            Set<String> names = new HashSet<>();
            for (CollectiveAlgorithm a : candidates) {
                names.add(a.name());
            }
            p = pick(rank(op, names, call.ranks(), bytes, JobModels.of(spec)), safe);
            cache.putIfAbsent(key, p);
        }
        return p.orElse(null);
    }

    /**
     * The fastest of {@code ranked} (the earlier on equal predictions), or {@code fallback} when it is
     * ranked within {@link #NEAR_TIE} of the fastest; empty when nothing is ranked.
     */
    static Optional<Prediction> pick(List<Ranked> ranked, String fallback) {
        Ranked best = null;
        Ranked safe = null;
        for (Ranked r : ranked) {
            if (best == null || r.completion() < best.completion()) {
                best = r;
            }
            if (r.algorithm().equals(fallback)) {
                safe = r;
            }
        }
        if (best == null) {
            return Optional.empty();
        }
        Ranked chosen = safe != null && safe.completion() <= best.completion() * (1 + NEAR_TIE) ? safe : best;
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
            double completion;
            try {
                completion = Simulator.event(e.build(AlgorithmCatalogue.Shape.of(ranks, 0, bytes, model)), model)
                        .completion();
            } catch (IllegalArgumentException | UnsupportedOperationException ex) {
                continue;
            }
            out.add(new Ranked(e.name(), completion));
        }
        return out;
    }
}
