package io.mpirunj.benchmarks.papers;

import io.mpirunj.benchmarks.render.Charts;
import io.mpirunj.collectives.multicast.BinomialMulticast;
import io.mpirunj.collectives.multicast.MulticastAlgorithms;
import io.mpirunj.collectives.multicast.OptTreeMulticast;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * Every registered multicast builder over k = 2..64 nodes on t_hold = 20, t_end = 55, evaluated
 * event by event; OPT-tree must equal t[k] and beat or tie every other builder (it is the
 * optimal one-port tree), and with t_hold = t_end the binomial tree must be optimal.
 */
final class CompletionVsGroupSize implements Reproduction {

    static final int MAX_K = 64;

    @Override
    public String id() {
        return "000-sweep-k";
    }

    @Override
    public Paper paper() {
        return Paper.P000;
    }

    @Override
    public String title() {
        return "Completion vs group size k for every multicast builder (t_hold = 20, t_end = 55)";
    }

    @Override
    public String description() {
        return "Each algorithm in MulticastAlgorithms, k = 2.." + MAX_K + ", root 0, event-driven on "
                + "hold=20,end=55. Checks OPT-tree's optimality claims: its simulated time equals t[k], no other "
                + "builder is faster, and when t_hold = t_end the optimal time is the binomial tree's.";
    }

    static int[] sizes(boolean quick) {
        List<Integer> ks = new ArrayList<>();
        for (int k = 2; k <= MAX_K; k++) {
            if (!quick || k <= 16 || k % 4 == 0) {
                ks.add(k);
            }
        }
        return ks.stream().mapToInt(Integer::intValue).toArray();
    }

    @Override
    public ReproductionResult run(RunOptions options) {
        ReproductionResult.Builder out = ReproductionResult.builder();
        CostModel model = ModelSpec.parse("hold=20,end=55");
        int[] ks = sizes(options.quick());
        List<MulticastAlgorithms.Entry> entries = MulticastAlgorithms.all();
        double[][] time = new double[entries.size()][ks.length];
        int opt = -1;
        for (int a = 0; a < entries.size(); a++) {
            MulticastAlgorithms.Entry e = entries.get(a);
            if (e.name().equals(OptTreeMulticast.NAME)) {
                opt = a;
            }
            for (int i = 0; i < ks.length; i++) {
                time[a][i] = Simulator.event(e.builder().build(ks[i], 0, 0, model), model).completion();
            }
        }
        if (opt < 0) {
            throw new IllegalStateException("opt-tree is not registered in MulticastAlgorithms");
        }

        boolean equalsTable = true;
        String tableMismatch = "";
        for (int i = 0; i < ks.length; i++) {
            double t = OptTreeMulticast.table(ks[i], 0, model).time(ks[i]);
            if (!Check.same(t, time[opt][i]) && equalsTable) {
                equalsTable = false;
                tableMismatch = "k = " + ks[i] + ": simulated " + Check.format(time[opt][i]) + ", t[k] " + Check.format(t);
            }
        }
        String range = "k = " + ks[0] + ".." + ks[ks.length - 1] + " (" + ks.length + " sizes)";
        out.check(Check.property("OPT-tree simulated = t[k], " + range, "t[k] is the tree's time",
                equalsTable ? "equal at every k" : tableMismatch, equalsTable, "OptTreeTable vs Simulator.event"));

        for (int a = 0; a < entries.size(); a++) {
            if (a == opt) {
                continue;
            }
            int beaten = -1;
            for (int i = 0; i < ks.length && beaten < 0; i++) {
                if (time[a][i] < time[opt][i] - 1e-9) {
                    beaten = i;
                }
            }
            String name = entries.get(a).name();
            out.check(Check.property("OPT-tree ≤ " + name + ", " + range, "OPT-tree is the optimal one-port tree",
                    beaten < 0 ? "holds" : "violated at k = " + ks[beaten] + ": " + Check.format(time[a][beaten])
                            + " < " + Check.format(time[opt][beaten]),
                    beaten < 0, ""));
        }

        CostModel equal = ModelSpec.parse("hold=55,end=55");
        int mismatch = -1;
        for (int k = 2; k <= MAX_K && mismatch < 0; k++) {
            double t = OptTreeMulticast.table(k, 0, equal).time(k);
            double b = Simulator.event(BinomialMulticast.build(k, 0, 0, equal), equal).completion();
            if (!Check.same(t, b)) {
                mismatch = k;
            }
        }
        out.check(Check.property("t_hold = t_end = 55: OPT-tree time = binomial, k = 2.." + MAX_K,
                "the optimal tree is binomial", mismatch < 0 ? "equal at every k" : "differs at k = " + mismatch,
                mismatch < 0, "t[k] = ⌈log2 k⌉·55"));

        int last = ks.length - 1;
        for (int a = 0; a < entries.size(); a++) {
            out.check(Check.info(entries.get(a).name() + " at k = " + ks[last], Check.format(time[a][last]),
                    entries.get(a).description()));
        }
        if (options.quick()) {
            out.note("Quick mode: k = 2..16, then every 4th k up to " + MAX_K + ".");
        }
        out.note("Message size 0: the model is size-independent, so the segmented builders send one segment.");

        List<Charts.Series> series = new ArrayList<>();
        double[] x = new double[ks.length];
        for (int i = 0; i < ks.length; i++) {
            x[i] = ks[i];
        }
        for (int a = 0; a < entries.size(); a++) {
            series.add(new Charts.Series(entries.get(a).name(), x, time[a], a));
        }
        out.figure(new Figure("completion-vs-k", "Event-driven completion time vs k, every multicast builder, "
                + "hold=20,end=55 (model time units)",
                Charts.line("Multicast completion vs group size (hold=20, end=55)", "group size k",
                        "completion (model time)", series, 1000, 600)));
        // The logarithmic-depth trees, without the linear ones that flatten the first chart.
        List<Charts.Series> trees = new ArrayList<>();
        for (int a = 0; a < entries.size(); a++) {
            if (time[a][last] <= 2 * time[opt][last]) {
                trees.add(series.get(a));
            }
        }
        out.figure(new Figure("completion-vs-k-trees", "The same, only the builders within 2× of OPT-tree at k = "
                + ks[last] + " (the tree-shaped ones)",
                Charts.line("Tree multicasts: completion vs group size (hold=20, end=55)", "group size k",
                        "completion (model time)", trees, 1000, 600)));
        return out.build();
    }
}
