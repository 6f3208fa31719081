package io.mpirunj.benchmarks.papers;

import io.mpirunj.benchmarks.render.SchedulePictures;
import io.mpirunj.collectives.multicast.BinarySplitMulticast;
import io.mpirunj.collectives.multicast.FibonacciMulticast;
import io.mpirunj.collectives.multicast.OptTreeMulticast;
import io.mpirunj.collectives.sim.Simulation;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;

/**
 * Paper 002, figure 2: 8 nodes under LogP (L = 6, o = 2, g = 4): Fibonacci split 24, binary
 * split 30; and the property that OPT-tree (t_hold = g, t_end = L + 2o) is never slower than the
 * Fibonacci tree.
 */
final class FibonacciEightNodes implements Reproduction {

    @Override
    public String id() {
        return "002-fibonacci";
    }

    @Override
    public Paper paper() {
        return Paper.P002;
    }

    @Override
    public String title() {
        return "Figure 2: Fibonacci vs binary split, K = 8, LogP L = 6, o = 2, g = 4";
    }

    @Override
    public String description() {
        return "Event-driven simulation of the Fibonacci-split and binary-split schedules under LogP, and the "
                + "paper's closed forms (eq. 2 for binary split, eq. 3–4 for Fibonacci). Then OPT-tree, "
                + "optimal in the t_hold = g, t_end = L + 2o model, against Fibonacci for every K up to a bound.";
    }

    @Override
    public ReproductionResult run(RunOptions options) {
        ReproductionResult.Builder out = ReproductionResult.builder();
        CostModel logp = ModelSpec.parse("logp:L=6,o=2,g=4");
        double tHold = logp.tHold(0);
        double tEnd = logp.tEnd(0);
        Simulation fibonacci = Simulator.event(FibonacciMulticast.build(8, 0, 0, logp), logp);
        Simulation binary = Simulator.event(BinarySplitMulticast.build(8, 0, 0, logp), logp);
        out.exact("Fibonacci, K = 8, simulated", 24, fibonacci.completion(), "Simulator.event");
        out.exact("Fibonacci, K = 8, eq. (3)–(4)", 24, FibonacciMulticast.paperTime(8, tHold, tEnd),
                "T(K) = max{T(f_{n−2}) + L + 2o, T(K − f_{n−2}) + g}");
        out.exact("binary split, K = 8, simulated", 30, binary.completion(), "Simulator.event");
        out.exact("binary split, K = 8, eq. (2)", 30, BinarySplitMulticast.paperTime(8, tEnd), "⌈log2 K⌉·(L + 2o)");

        int maxK = options.quick() ? 128 : 1024;
        int violatedAt = -1;
        int faster = 0;
        double bestGain = 0;
        int bestK = -1;
        for (int k = 1; k <= maxK; k++) {
            double opt = OptTreeMulticast.table(k, 0, logp).time(k);
            double fib = Simulator.event(FibonacciMulticast.build(k, 0, 0, logp), logp).completion();
            if (opt > fib + 1e-9 && violatedAt < 0) {
                violatedAt = k;
            }
            if (opt < fib - 1e-9) {
                faster++;
                if (fib - opt > bestGain) {
                    bestGain = fib - opt;
                    bestK = k;
                }
            }
        }
        String observed = violatedAt >= 0 ? "violated at K = " + violatedAt
                : faster == 0 ? "holds; equal at every K"
                : "holds; OPT-tree strictly faster at " + faster + " of " + maxK + " K (by up to "
                        + Check.format(bestGain) + " at K = " + bestK + ")";
        out.check(Check.property("OPT-tree ≤ Fibonacci, K = 1.." + maxK, "OPT-tree optimal in that model",
                observed, violatedAt < 0, "t_hold = g = 4, t_end = L + 2o = 10; OPT-tree: t[K], Fibonacci: event-simulated"));

        out.figure(new Figure("fibonacci-k8-tree", "Fibonacci split, K = 8, LogP L = 6, o = 2, g = 4: 24",
                SchedulePictures.tree(fibonacci)));
        out.figure(new Figure("binary-split-k8-tree", "Binary split, K = 8, same model: 30",
                SchedulePictures.tree(binary)));
        out.figure(new Figure("fibonacci-k8-timing", "Fibonacci split as a timing diagram (busy bars are the "
                + "overhead o = 2; the network interval is L = 6)", SchedulePictures.timing(fibonacci, logp)));
        return out.build();
    }
}
