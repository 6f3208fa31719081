package io.mpirunj.benchmarks.papers;

import io.mpirunj.benchmarks.render.SchedulePictures;
import io.mpirunj.collectives.multicast.OptTreeMulticast;
import io.mpirunj.collectives.multicast.OptTreeTable;
import io.mpirunj.collectives.sim.Simulation;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;

/**
 * Paper 000, Table 1: t[i] and j_i for i = 1..9 with t_hold = 20, t_end = 55, from the paper's
 * Algorithm 1; the OPT-tree over 9 nodes built from it and simulated event by event must finish
 * at t[9] = 135.
 */
final class OptTreeTable1 implements Reproduction {

    static final double T_HOLD = 20;
    static final double T_END = 55;
    /** j_i for i = 1..9 (index 0 unused; j_1 is undefined). */
    static final int[] PAPER_J = {0, 0, 1, 2, 3, 3, 4, 5, 5, 6};
    /** t[i] for i = 1..9 (index 0 unused). */
    static final double[] PAPER_T = {0, 0, 55, 75, 95, 110, 115, 130, 130, 135};

    @Override
    public String id() {
        return "000-table1";
    }

    @Override
    public Paper paper() {
        return Paper.P000;
    }

    @Override
    public String title() {
        return "Table 1: OPT-tree t[i] and j_i (k = 9, t_hold = 20, t_end = 55)";
    }

    @Override
    public String description() {
        return "The optimal multicast time t[i] over i nodes and the split j_i, from the paper's O(k) "
                + "Algorithm 1 (OptTreeTable.algorithm1), checked against the O(k²) recurrence and against the "
                + "event-driven simulation of the OPT-tree schedule built from the table.";
    }

    @Override
    public ReproductionResult run(RunOptions options) {
        ReproductionResult.Builder out = ReproductionResult.builder();
        int k = 9;
        OptTreeTable table = OptTreeTable.algorithm1(k, T_HOLD, T_END);
        OptTreeTable dp = OptTreeTable.fullDp(k, T_HOLD, T_END, 1);
        for (int i = 2; i <= k; i++) {
            out.exact("j_" + i, PAPER_J[i], table.split(i), "Algorithm 1");
        }
        for (int i = 1; i <= k; i++) {
            out.exact("t[" + i + "]", PAPER_T[i], table.time(i), "Algorithm 1");
        }
        boolean agree = true;
        for (int i = 1; i <= k; i++) {
            agree &= Check.same(table.time(i), dp.time(i));
        }
        out.check(Check.property("Algorithm 1 vs full recurrence", "O(k) shortcut exact when t_hold ≤ t_end",
                agree ? "t[1..9] identical" : "differs", agree, "OptTreeTable.fullDp"));

        CostModel model = ModelSpec.parse("hold=20,end=55");
        Simulation sim = Simulator.event(OptTreeMulticast.build(k, 0, 0, model), model);
        out.exact("OPT-tree, 9 nodes, event-simulated", PAPER_T[k], sim.completion(),
                "schedule from OptTreeMulticast, Simulator.event");
        out.figure(new Figure("opt-tree-k9-tree", "OPT-tree over 9 nodes (Table 1 setup): edges labelled with "
                + "send order, step and send start → delivery", SchedulePictures.tree(sim)));
        out.figure(new Figure("opt-tree-k9-timing", "The same schedule as a timing diagram: the root sends "
                + "every t_hold = 20; each message is delivered t_end = 55 after its send starts",
                SchedulePictures.timing(sim, model)));
        return out.build();
    }
}
