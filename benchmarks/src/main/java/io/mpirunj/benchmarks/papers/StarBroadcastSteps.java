package io.mpirunj.benchmarks.papers;

import io.mpirunj.benchmarks.render.Charts;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.star.AkersStarBcast;
import io.mpirunj.collectives.star.StarBcast;
import io.mpirunj.collectives.star.StarBroadcastPlan;
import io.mpirunj.collectives.star.StarScheduleCheck;
import io.mpirunj.fabric.placement.Placement;
import io.mpirunj.fabric.topology.StarGraph;
import io.mpirunj.fabric.wormhole.WormholeParams;
import java.util.ArrayList;
import java.util.List;

/**
 * Paper 004 on S_3..S_9: steps of the Hamiltonian-interval broadcast, of its matched variant and
 * of Akers' baseline against the lower bound ceil(log_n n!), the longest paths, and the time the
 * flit-level wormhole engine (all-port, the paper 000 parameters, 1 KiB) gives when the steps run
 * one after the other.
 */
final class StarBroadcastSteps implements Reproduction {

    static final int MIN_N = 3;
    static final int MAX_N = 9;
    /** Message size of the flit-level replay. */
    static final long BYTES = 1024;
    /** Largest n in quick mode (S_9's 362,880 nodes take seconds per algorithm). */
    static final int QUICK_N = 8;
    /** Largest n whose flit-level replay runs in quick mode. */
    static final int QUICK_FLIT_N = 7;

    private static final String[] NAMES = {StarBcast.NAME, StarBcast.MATCHED_NAME, AkersStarBcast.NAME};

    @Override
    public String id() {
        return "004-star-steps";
    }

    @Override
    public Paper paper() {
        return Paper.P004;
    }

    @Override
    public String title() {
        return "Star graph all-port broadcast: steps vs ceil(log_n n!), and wormhole time, n = 3..9";
    }

    @Override
    public String description() {
        return "Builds the paper's broadcast (Hamiltonian-path intervals, final step as soon as I_s is complete), the "
                + "matched variant and Akers' baseline from source 12...n on S_n, checks every schedule (all nodes once, "
                + "per step link-disjoint paths and <= n-1 sends per node), and replays each step in the flit-level "
                + "wormhole engine (all-port, ss=2000,sd=2,cd=2,rs=3500,rd=3, " + BYTES + " B).";
    }

    @Override
    public ReproductionResult run(RunOptions options) {
        ReproductionResult.Builder out = ReproductionResult.builder();
        int maxN = options.quick() ? QUICK_N : MAX_N;
        int count = maxN - MIN_N + 1;
        double[] ns = new double[count];
        double[] bound = new double[count];
        double[][] steps = new double[NAMES.length][count];
        double[][] time = new double[NAMES.length][count];
        List<Integer> matchedOptimal = new ArrayList<>();
        boolean withinBound = true;
        boolean akersExact = true;
        boolean disjoint = true;
        String firstProblem = "";
        int flitMax = options.quick() ? QUICK_FLIT_N : MAX_N;
        for (int n = MIN_N; n <= maxN; n++) {
            int i = n - MIN_N;
            StarGraph star = new StarGraph(n);
            int[] nodeOf = Placement.identity(star.nodes());
            ns[i] = n;
            bound[i] = StarBroadcastPlan.lowerBound(n);
            StringBuilder hops = new StringBuilder();
            for (int a = 0; a < NAMES.length; a++) {
                StarBroadcastPlan plan = switch (NAMES[a]) {
                    case StarBcast.NAME -> StarBcast.plan(n, 0);
                    case StarBcast.MATCHED_NAME -> StarBcast.planMatched(n, 0);
                    default -> AkersStarBcast.plan(n, 0);
                };
                Schedule schedule = plan.toSchedule(NAMES[a], BYTES, nodeOf);
                StarScheduleCheck.Report report = StarScheduleCheck.check(schedule, star, nodeOf, false);
                if (!report.ok() && disjoint) {
                    disjoint = false;
                    firstProblem = NAMES[a] + " S_" + n + ": " + report.problems().get(0);
                }
                steps[a][i] = plan.steps();
                hops.append(a == 0 ? "" : ", ").append(NAMES[a]).append(' ').append(plan.maxHops());
                if (n <= flitMax) {
                    StarScheduleCheck.Replay replay = StarScheduleCheck.wormholeReplay(schedule, star, nodeOf,
                            WormholeParams.PAPER);
                    time[a][i] = replay.total();
                    if (!replay.contentions().isEmpty() && disjoint) {
                        disjoint = false;
                        firstProblem = NAMES[a] + " S_" + n + ": wormhole contention " + replay.contentions().get(0);
                    }
                } else {
                    time[a][i] = Double.NaN;
                }
            }
            if (steps[0][i] > bound[i] + 1) {
                withinBound = false;
            }
            if (steps[2][i] != n - 1) {
                akersExact = false;
            }
            if (steps[1][i] == bound[i]) {
                matchedOptimal.add(n);
            }
            out.check(Check.info("S_" + n + " (" + star.nodes() + " nodes): steps, T_opt = " + (int) bound[i],
                    "star " + (int) steps[0][i] + ", star-match " + (int) steps[1][i] + ", akers-star "
                            + (int) steps[2][i],
                    "longest path (links): " + hops));
            if (n <= flitMax) {
                out.check(Check.info("S_" + n + ": flit-level time, steps in sequence",
                        "star " + Check.format(time[0][i]) + ", star-match " + Check.format(time[1][i])
                                + ", akers-star " + Check.format(time[2][i]),
                        "sum over steps of the step's last delivery (all its worms injected at once)"));
            }
        }
        out.check(Check.property("star: steps <= ceil(log_n n!) + 1, n = " + MIN_N + ".." + maxN,
                "<= ceil(log_n n!) + 1 (theorem 1)", withinBound ? "holds at every n" : "violated", withinBound,
                "source 12...n; every source gives the same counts (symbol relabelling is an automorphism)"));
        out.check(Check.property("akers-star: steps = n - 1, n = " + MIN_N + ".." + maxN, "n - 1 steps",
                akersExact ? "holds at every n" : "violated", akersExact, ""));
        out.check(Check.property("every step link-disjoint, <= n - 1 sends per node, all informed once",
                "contention-free (theorem 1)", disjoint ? "holds (star check; wormhole replay up to S_" + flitMax + ")"
                        : firstProblem, disjoint, "StarScheduleCheck and the flit-level engine, all-port"));
        StarGraph s4 = new StarGraph(4);
        out.exact("S_4, source dcba: steps (figure 7)", 3, StarBcast.plan(4, s4.node("dcba")).steps(),
                "the final step starts as soon as I_s is complete");
        out.check(Check.info("star-match reaches ceil(log_n n!) at n =", matchedOptimal.toString(),
                "beyond the paper: the last I_s step as a maximum matching of (sender, substar) slots"));
        out.note("Where the hop count hurts: the interval paths run along Hamiltonian paths of S_{n-1}, so the "
                + "longest has thousands of links at n = 8 and tens of thousands at n = 9; at cd = 2 per link a "
                + "path of L links adds 2L to its step, against t_end = 5500 + 7m for m flits. Akers' paths have at "
                + "most 2 links, so it can finish first in time although it takes more steps.");
        if (options.quick()) {
            out.note("Quick mode: S_3..S_" + QUICK_N + ", the flit-level replay up to S_" + QUICK_FLIT_N + ".");
        }
        List<Charts.Series> stepSeries = new ArrayList<>();
        for (int a = 0; a < NAMES.length; a++) {
            stepSeries.add(new Charts.Series(NAMES[a], ns, steps[a], a));
        }
        // The bounds last, so they are drawn on top of the algorithms that meet them.
        double[] boundPlusOne = bound.clone();
        for (int i = 0; i < boundPlusOne.length; i++) {
            boundPlusOne[i]++;
        }
        stepSeries.add(new Charts.Series("ceil(log_n n!) + 1 (theorem 1)", ns, boundPlusOne, 4));
        stepSeries.add(new Charts.Series("lower bound ceil(log_n n!)", ns, bound, 3));
        out.figure(new Figure("star-steps", "Broadcast steps on S_n against the lower bound",
                Charts.line("Star graph broadcast steps (all-port, wormhole)", "n (S_n has n! nodes)", "steps",
                        stepSeries, 1000, 600)));
        List<Charts.Series> timeSeries = new ArrayList<>();
        int shown = flitMax - MIN_N + 1;
        double[] xs = java.util.Arrays.copyOf(ns, shown);
        for (int a = 0; a < NAMES.length; a++) {
            timeSeries.add(new Charts.Series(NAMES[a], xs, java.util.Arrays.copyOf(time[a], shown), a));
        }
        out.figure(new Figure("star-time", "Flit-level time of the steps in sequence (" + BYTES + " B, paper 000 "
                + "parameters, model time units of 10 ns)",
                Charts.line("Star graph broadcast, flit-level wormhole time", "n (S_n has n! nodes)",
                        "time (model units)", timeSeries, 1000, 600)));
        return out.build();
    }
}
