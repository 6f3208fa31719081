package io.mpirunj.collectives.experiment;

import io.mpirunj.collectives.multicast.MulticastAlgorithms;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.HeteroSpec;
import io.mpirunj.fabric.model.Numbers;
import io.mpirunj.fabric.model.PairCostModel;
import io.mpirunj.fabric.model.PredictionError;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.function.IntConsumer;

/**
 * Paper 003's prediction-error experiment. For each repetition: a real network M0 (drawn from the
 * {@link HeteroSpec}, or the file's), and for each σ a prediction M1 = M0 with relative error
 * N(μ, σ) per link ({@link PredictionError}); every algorithm builds its bcast on M1 and is simulated
 * event by event on M0, with α = {@code alphaFraction} × M0's mean pair cost. Results are the mean
 * completion over the repetitions and the delay ratio {@code (P(σ) - P(0)) / P(0)} of each algorithm
 * against its own mean at σ = 0 (computed even when 0 is not among the σ asked for).
 *
 * <p>Deterministic for a seed: repetition r draws M0 and the error's normal variates from
 * {@code new Random(seed * 1_000_003 + r)}, and one set of variates serves every σ (the error
 * grows with σ along the same directions), so the curves are smooth in σ.
 */
public final class PredictionErrorExperiment {

    /** α as a share of the real network's mean pair cost, unless told otherwise (the paper gives no value). */
    public static final double ALPHA_FRACTION_DEFAULT = 0.01;

    /**
     * What to run.
     *
     * @param network       where M0 comes from
     * @param algorithms    registered bcast algorithm names ({@link MulticastAlgorithms})
     * @param sigmas        the σ values, each >= 0
     * @param reps          repetitions, >= 1
     * @param nodes         ranks, >= 2 (a file fixes it)
     * @param root          the broadcast root
     * @param messageBytes  the message size (paper: 1 MB = 10^6 bytes)
     * @param errorMean     μ of the relative error (paper: 0)
     * @param alphaFraction α / (M0's mean pair cost), >= 0
     * @param seed          the random seed
     */
    public record Config(HeteroSpec network, List<String> algorithms, double[] sigmas, int reps, int nodes, int root,
                         long messageBytes, double errorMean, double alphaFraction, long seed) {
        public Config {
            Objects.requireNonNull(network, "network");
            algorithms = List.copyOf(algorithms);
            sigmas = sigmas.clone();
            if (algorithms.isEmpty()) {
                throw new IllegalArgumentException("no algorithms (expected: at least one)");
            }
            for (String a : algorithms) {
                MulticastAlgorithms.lookup(a);
            }
            if (sigmas.length == 0) {
                throw new IllegalArgumentException("no sigma values (expected: at least one)");
            }
            for (double s : sigmas) {
                Numbers.requireFiniteNonNegative("sigma", s);
            }
            if (reps < 1) {
                throw new IllegalArgumentException("reps=" + reps + " (expected: >= 1)");
            }
            if (nodes < 2) {
                throw new IllegalArgumentException("nodes=" + nodes + " (expected: >= 2)");
            }
            if (network.fixed() && network.fixedNodes() != nodes) {
                throw new IllegalArgumentException(network + " has " + network.fixedNodes() + " nodes (expected: "
                        + nodes + ", the -np)");
            }
            if (root < 0 || root >= nodes) {
                throw new IllegalArgumentException("root=" + root + " (expected: 0.." + (nodes - 1) + ")");
            }
            if (messageBytes < 0) {
                throw new IllegalArgumentException("messageBytes=" + messageBytes + " (expected: >= 0)");
            }
            Numbers.requireFiniteNonNegative("alphaFraction", alphaFraction);
            if (!Double.isFinite(errorMean)) {
                throw new IllegalArgumentException("errorMean=" + errorMean + " (expected: finite)");
            }
        }

        @Override
        public double[] sigmas() {
            return sigmas.clone();
        }
    }

    /** One algorithm at one σ: mean completion (model time units) and delay ratio (0.76 = +76 %). */
    public record Result(String algorithm, double sigma, double meanCompletion, double delayRatio) {
    }

    private PredictionErrorExperiment() {
    }

    /**
     * Runs the experiment.
     *
     * @param progress told the number of repetitions done after each one (for a progress bar)
     * @return per algorithm (in the given order), per σ (in the given order)
     */
    public static List<Result> run(Config config, IntConsumer progress) {
        double[] sigmas = config.sigmas();
        List<String> algorithms = config.algorithms();
        int a = algorithms.size();
        double[][] sum = new double[a][sigmas.length];
        double[] sumAtZero = new double[a];
        for (int rep = 0; rep < config.reps(); rep++) {
            Random random = new Random(config.seed() * 1_000_003L + rep);
            PairCostModel real = config.network().real(config.nodes(), random,
                    "hetero:" + config.network() + ",nodes=" + config.nodes() + ",seed=" + config.seed() + ",rep=" + rep);
            double[][] z = PredictionError.normals(config.nodes(), random);
            PairCostModel evaluated = real.withFirstOfDecision(config.alphaFraction() * real.meanCost(config.messageBytes()));
            for (int i = 0; i < a; i++) {
                sumAtZero[i] += completion(config, algorithms.get(i), evaluated, evaluated);
            }
            for (int s = 0; s < sigmas.length; s++) {
                PairCostModel predicted = PredictionError.predict(evaluated, config.errorMean(), sigmas[s], z);
                for (int i = 0; i < a; i++) {
                    sum[i][s] += sigmas[s] == 0 && config.errorMean() == 0 ? completion(config, algorithms.get(i),
                            evaluated, evaluated) : completion(config, algorithms.get(i), predicted, evaluated);
                }
            }
            progress.accept(rep + 1);
        }
        List<Result> out = new ArrayList<>();
        for (int i = 0; i < a; i++) {
            double base = sumAtZero[i] / config.reps();
            for (int s = 0; s < sigmas.length; s++) {
                double mean = sum[i][s] / config.reps();
                out.add(new Result(algorithms.get(i), sigmas[s], mean, base == 0 ? 0 : (mean - base) / base));
            }
        }
        return out;
    }

    /** The bcast {@code algorithm} builds on {@code predicted}, simulated on {@code real}. */
    private static double completion(Config config, String algorithm, PairCostModel predicted, PairCostModel real) {
        return Simulator.event(MulticastAlgorithms.bcast(algorithm, config.nodes(), config.root(), config.messageBytes(),
                predicted), real).completion();
    }

    /**
     * σ values from {@code FROM:TO:STEP} (both ends included, decimal steps without drift:
     * {@code 0:0.5:0.05} is 0, 0.05, ..., 0.5), a comma-separated list, or one number.
     *
     * @throws IllegalArgumentException one line naming the bad part
     */
    public static double[] sigmas(String text) {
        String t = text == null ? "" : text.trim();
        try {
            if (t.contains(":")) {
                String[] p = t.split(":", -1);
                if (p.length != 3) {
                    throw new IllegalArgumentException();
                }
                BigDecimal from = new BigDecimal(p[0].trim());
                BigDecimal to = new BigDecimal(p[1].trim());
                BigDecimal step = new BigDecimal(p[2].trim());
                if (from.signum() < 0 || step.signum() <= 0 || to.compareTo(from) < 0) {
                    throw new IllegalArgumentException();
                }
                List<Double> values = new ArrayList<>();
                for (BigDecimal v = from; v.compareTo(to) <= 0 && values.size() <= 10_000; v = v.add(step)) {
                    values.add(v.doubleValue());
                }
                if (values.size() > 10_000) {
                    throw new IllegalArgumentException();
                }
                return values.stream().mapToDouble(Double::doubleValue).toArray();
            }
            String[] p = t.split(",", -1);
            double[] values = new double[p.length];
            for (int i = 0; i < p.length; i++) {
                values[i] = new BigDecimal(p[i].trim()).doubleValue();
                if (values[i] < 0) {
                    throw new IllegalArgumentException();
                }
            }
            return values;
        } catch (IllegalArgumentException e) { // NumberFormatException too
            throw new IllegalArgumentException("sigma '" + text + "' (expected: FROM:TO:STEP such as 0:0.5:0.05, "
                    + "a list such as 0,0.3,0.4, or one number; all >= 0, at most 10000 values)");
        }
    }
}
