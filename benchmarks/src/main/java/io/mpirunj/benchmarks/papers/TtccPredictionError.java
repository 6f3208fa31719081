package io.mpirunj.benchmarks.papers;

import io.mpirunj.benchmarks.render.Charts;
import io.mpirunj.collectives.experiment.PredictionErrorExperiment;
import io.mpirunj.fabric.model.HeteroSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Paper 003, figures 10–11: the delay ratio of ECEF, FEF and TTCC as the network prediction gets
 * worse (σ of the relative error from 0 to 0.5), on the paper's clustered network with 1 MB messages.
 * The paper gives the shape and four numbers (σ = 0.3: TTCC +49 %, ECEF +55 %; σ = 0.4: TTCC +76 %,
 * ECEF +226 %); its network generator, cluster count and α are not given, so we check the shape:
 * with exact information ECEF is slightly better, and as σ grows ECEF's delay ratio outgrows TTCC's.
 */
final class TtccPredictionError implements Reproduction {

    private static final List<String> ALGORITHMS = List.of("ecef", "fef", "ttcc");

    @Override
    public String id() {
        return "003-sigma";
    }

    @Override
    public Paper paper() {
        return Paper.P003;
    }

    @Override
    public String title() {
        return "Figures 10–11: delay ratio vs prediction error σ, ECEF / FEF / TTCC";
    }

    @Override
    public String description() {
        return "PredictionErrorExperiment on --hetero paper (4 clusters), 1 MB, root 0, α = 1 % of the mean pair "
                + "cost, seed 1: trees built on M1 = M0·|1 + N(0, σ)|, simulated event by event on M0. Same as "
                + "mpirun-j simulate --op bcast --algo ecef,fef,ttcc --hetero paper --error-sigma 0:0.5:0.05 --reps R -np N.";
    }

    @Override
    public ReproductionResult run(RunOptions options) {
        int nodes = options.quick() ? 40 : 100;
        int reps = options.quick() ? 20 : 100;
        double[] sigmas = PredictionErrorExperiment.sigmas(options.quick() ? "0:0.5:0.1" : "0:0.5:0.05");
        var config = new PredictionErrorExperiment.Config(HeteroSpec.parse("paper"), ALGORITHMS, sigmas, reps, nodes,
                0, 1_000_000, 0, PredictionErrorExperiment.ALPHA_FRACTION_DEFAULT, 1);
        List<PredictionErrorExperiment.Result> results = PredictionErrorExperiment.run(config, done -> { });
        ReproductionResult.Builder out = ReproductionResult.builder();
        String where = nodes + " nodes, " + reps + " repetitions";

        double ecef0 = mean(results, "ecef", sigmas, 0);
        double ttcc0 = mean(results, "ttcc", sigmas, 0);
        out.check(Check.property("σ = 0: ECEF vs TTCC mean completion", "ECEF slightly better (α, duplicate traffic)",
                String.format(Locale.ROOT, "ECEF %.3g µs, TTCC %.3g µs (%+.1f %%)", ecef0, ttcc0, 100 * (ttcc0 / ecef0 - 1)),
                ecef0 <= ttcc0 && ttcc0 <= 1.05 * ecef0, where));
        for (double s : new double[] {0.3, 0.4}) {
            double e = delay(results, "ecef", sigmas, s);
            double t = delay(results, "ttcc", sigmas, s);
            String paperText = s == 0.3 ? "TTCC +49 %, ECEF +55 %" : "TTCC +76 %, ECEF +226 %";
            out.check(Check.property("σ = " + s + ": delay ratio", paperText + " (TTCC < ECEF)",
                    String.format(Locale.ROOT, "TTCC %+.0f %%, ECEF %+.0f %%", 100 * t, 100 * e), t < e, where));
        }
        double e4 = delay(results, "ecef", sigmas, 0.4);
        double t4 = delay(results, "ttcc", sigmas, 0.4);
        out.check(Check.property("σ = 0.4: ECEF's delay ratio / TTCC's", "226 / 76 = 3.0 (ECEF grows much faster)",
                String.format(Locale.ROOT, "%.1f", e4 / t4), e4 > 1.5 * t4, "shape: more than 1.5"));
        for (double s : sigmas) {
            StringBuilder row = new StringBuilder();
            for (String a : ALGORITHMS) {
                row.append(row.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%s %.4g µs (%+.0f %%)", a,
                        mean(results, a, sigmas, s), 100 * delay(results, a, sigmas, s)));
            }
            out.check(Check.info("σ = " + String.format(Locale.ROOT, "%.2f", s), row.toString(), "mean completion (delay ratio)"));
        }
        out.note("The paper's figures are missing from the text; its four quoted numbers are the reference. Our ECEF "
                + "degrades in a jump once some link is predicted several times too cheap (it then routes a cluster "
                + "through it); TTCC's second tree gives that cluster another way in.");
        out.note("TTCC here lets a losing copy finish its transfer (the sender stays busy); the paper's receiver cuts "
                + "the losing path, which would help TTCC further.");
        if (options.quick()) {
            out.note("Quick mode: 40 nodes, 20 repetitions, σ step 0.1 (full: 100 nodes, 100 repetitions, step 0.05; "
                    + "the paper: 1000 repetitions).");
        }

        List<Charts.Series> series = new ArrayList<>();
        for (int a = 0; a < ALGORITHMS.size(); a++) {
            double[] y = new double[sigmas.length];
            for (int s = 0; s < sigmas.length; s++) {
                y[s] = 100 * delay(results, ALGORITHMS.get(a), sigmas, sigmas[s]);
            }
            series.add(new Charts.Series(ALGORITHMS.get(a) + " (ours)", sigmas, y, a));
        }
        series.add(new Charts.Series("ECEF (paper)", new double[] {0.3, 0.4}, new double[] {55, 226}, 3));
        series.add(new Charts.Series("TTCC (paper)", new double[] {0.3, 0.4}, new double[] {49, 76}, 4));
        out.figure(new Figure("delay-ratio", "Delay ratio (P(σ) − P(0)) / P(0) in %, " + where
                + ", beside the paper's quoted values", Charts.line("Paper 003: delay ratio vs prediction error",
                        "σ of the relative error", "delay ratio (%)", series, 900, 560)));
        return out.build();
    }

    private static PredictionErrorExperiment.Result find(List<PredictionErrorExperiment.Result> rs, String a,
            double[] sigmas, double s) {
        return rs.stream().filter(r -> r.algorithm().equals(a) && Math.abs(r.sigma() - s) < 1e-9).findFirst()
                .orElseThrow(() -> new IllegalStateException("no result for " + a + " at σ = " + s));
    }

    private static double mean(List<PredictionErrorExperiment.Result> rs, String a, double[] sigmas, double s) {
        return find(rs, a, sigmas, s).meanCompletion();
    }

    private static double delay(List<PredictionErrorExperiment.Result> rs, String a, double[] sigmas, double s) {
        return find(rs, a, sigmas, s).delayRatio();
    }
}
