package io.mpirunj.benchmarks.papers;

import io.mpirunj.benchmarks.mesh.MeshFigureSweep;
import io.mpirunj.benchmarks.mesh.MeshFigureSweep.Config;
import io.mpirunj.benchmarks.mesh.MeshFigureSweep.Fig;
import io.mpirunj.benchmarks.mesh.MeshFigureSweep.Point;
import io.mpirunj.benchmarks.mesh.MeshFigureSweep.Result;
import io.mpirunj.fabric.model.LinearFit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Paper 000, figures 11–14 (shape only): the flit-level 16×16 mesh sweep of
 * {@link MeshFigureSweep}. Checks, on the means over the paper's 16 random placements, that
 * OPT-mesh < OPT-tree < U-mesh at every point of every figure, that the time is linear in the
 * message size (figures 11, 12) and that OPT-mesh is contention-free in every single run.
 */
final class MeshFigures11To14 implements Reproduction {

    /** Linearity: the least-squares line's R² must reach this ... */
    static final double MIN_R2 = 0.999;
    /** ... and no point may lie further from it than this fraction of the series' range. */
    static final double MAX_RESIDUAL_OF_RANGE = 0.01;
    /** A smaller sample whose means are reported beside the paper's 16 (info only). */
    static final int FEW = 4;

    private static final List<String> ALGS = MeshFigureSweep.ALGORITHMS;

    @Override
    public String id() {
        return "000-fig11-14";
    }

    @Override
    public Paper paper() {
        return Paper.P000;
    }

    @Override
    public String title() {
        return "Figures 11–14: OPT-mesh < OPT-tree < U-mesh on the flit-level 16×16 mesh";
    }

    @Override
    public String description() {
        return "Flit-level wormhole simulation of a 16×16 mesh (XY routing, one-port, ss=2000, sd=2, cd=2, rs=3500, "
                + "rd=3, 1-byte flits; 1 time unit = 10 ns), each point the mean over 16 random placements "
                + "(random:1..16, rank 0 the source). Figure 11: 32 nodes and figure 12: 128 nodes, vs message size; "
                + "figure 13: 4 KB and figure 14: 64 KB, vs group size. OPT-tree and OPT-mesh split with the nominal "
                + "IBM SP model (t_hold = 2000 + 2m, t_end = 5500 + 7m). The paper gives these figures' shape only: "
                + "OPT-mesh fastest, U-mesh slowest, time linear in message size; OPT-mesh is contention-free by "
                + "its theorem.";
    }

    @Override
    public ReproductionResult run(RunOptions options) {
        ReproductionResult.Builder out = ReproductionResult.builder();
        Config config = options.quick() ? Config.QUICK : Config.FULL;
        Result sweep = MeshFigureSweep.run(config);
        int runs = config.placements();

        for (Fig fig : Fig.values()) {
            String where = "fig. " + fig.number() + " (" + fig.title() + ")";
            double[] xs = sweep.xs(fig);
            out.check(ordering(sweep, fig, where, xs));
            if (fig.bySize()) {
                out.check(linearity(sweep, fig, where));
            }
            out.check(contentionFree(sweep, fig, where, xs.length * runs));
            out.check(perRun(sweep, fig, where, xs));
            for (double x : new double[] {xs[0], xs[xs.length - 1]}) {
                out.check(values(sweep, fig, x));
            }
        }
        out.check(fewPlacements(sweep));
        out.check(Check.info("sweep wall time", String.format(Locale.ROOT, "%.2f s", sweep.seconds()),
                sweep.points().size() + " points, " + sweep.simulations() + " flit-level simulations ("
                        + runs + " placements each; points shared by two figures simulated once); machine-dependent"));

        if (options.quick()) {
            out.note("Quick mode: message sizes " + kb(config.sizes()) + " and group sizes " + ints(config.groups())
                    + ", still with the paper's 16 placements (the claims are about 16-placement means; see the "
                    + "first-" + FEW + "-placements row). Full mode: 1, 8, 16, …, 64 KB and 8–256 nodes.");
        }
        out.note("Linearity check: per algorithm, the least-squares line time = a + b·m over the figure's sizes has "
                + "R² ≥ " + MIN_R2 + " and no point further from it than " + Math.round(MAX_RESIDUAL_OF_RANGE * 100)
                + "% of the series' range (a straight line on the chart). Ordering checks are strict, on the means. "
                + "Times in units of 10 ns (1 ms = 100000); the charts show ms.");
        out.note("The same sweep, as CSV and stand-alone PNGs: io.mpirunj.benchmarks.mesh.MeshMulticastFigures.");

        for (Fig fig : Fig.values()) {
            out.figure(new Figure(fig.id(), "Figure " + fig.number() + ": " + fig.title() + " on the 16×16 mesh, "
                    + "multicast time vs " + (fig.bySize() ? "message size" : "group size") + ", mean of " + runs
                    + " placements", sweep.chart(fig)));
        }
        return out.build();
    }

    /** OPT-mesh < OPT-tree < U-mesh on the means at every x, with the tightest margins. */
    private static Check ordering(Result sweep, Fig fig, String where, double[] xs) {
        String violation = null;
        double tightTree = Double.POSITIVE_INFINITY;
        double tightTreeX = 0;
        double tightU = Double.POSITIVE_INFINITY;
        double tightUX = 0;
        for (double x : xs) {
            double mesh = sweep.at(fig, ALGS.get(0), x).mean();
            double tree = sweep.at(fig, ALGS.get(1), x).mean();
            double u = sweep.at(fig, ALGS.get(2), x).mean();
            if (!(mesh < tree && tree < u) && violation == null) {
                violation = "violated at " + xLabel(fig, x) + ": " + num(mesh) + " / " + num(tree) + " / " + num(u);
            }
            if (tree / mesh < tightTree) {
                tightTree = tree / mesh;
                tightTreeX = x;
            }
            if (u / tree < tightU) {
                tightU = u / tree;
                tightUX = x;
            }
        }
        String observed = violation != null ? violation
                : String.format(Locale.ROOT, "holds at all %d %s; closest: OPT-tree = %.3f× OPT-mesh (%s), "
                        + "U-mesh = %.3f× OPT-tree (%s)", xs.length, fig.bySize() ? "sizes" : "group sizes",
                        tightTree, xLabel(fig, tightTreeX), tightU, xLabel(fig, tightUX));
        return Check.property(where + ": OPT-mesh < OPT-tree < U-mesh", "OPT-mesh < OPT-tree < U-mesh", observed,
                violation == null, "strict, on the means over the placements");
    }

    /** Each algorithm's time vs message size on one straight line. */
    private static Check linearity(Result sweep, Fig fig, String where) {
        boolean holds = true;
        StringBuilder r2s = new StringBuilder();
        StringBuilder slopes = new StringBuilder();
        double worstResidual = 0;
        for (String a : ALGS) {
            List<Point> s = sweep.series(fig, a);
            double[] m = s.stream().mapToDouble(p -> p.bytes()).toArray();
            double[] t = s.stream().mapToDouble(Point::mean).toArray();
            LinearFit f = LinearFit.of(m, t);
            double range = t[t.length - 1] - t[0];
            double residual = f.maxResidual() / Math.abs(range);
            holds &= f.r2() >= MIN_R2 && residual <= MAX_RESIDUAL_OF_RANGE;
            worstResidual = Math.max(worstResidual, residual);
            double gap = 1 - f.r2();
            r2s.append(r2s.isEmpty() ? "" : " / ").append(gap < 1e-12 ? "0" : String.format(Locale.ROOT, "%.1e", gap));
            slopes.append(slopes.isEmpty() ? "" : " / ").append(String.format(Locale.ROOT, "%.2f", f.slope()));
        }
        return Check.property(where + ": time linear in message size", "linear",
                String.format(Locale.ROOT, "1 − R² = %s; max residual %.3f%% of range", r2s, worstResidual * 100), holds,
                "R² ≥ " + MIN_R2 + " and every point within " + Math.round(MAX_RESIDUAL_OF_RANGE * 100)
                        + "% of the range, for OPT-mesh / OPT-tree / U-mesh; slopes " + slopes + " units per byte");
    }

    /** No contention event in any OPT-mesh run of the figure. */
    private static Check contentionFree(Result sweep, Fig fig, String where, int runs) {
        int worst = 0;
        String at = "";
        for (Point p : sweep.series(fig, ALGS.get(0))) {
            if (p.maxContention() > worst) {
                worst = p.maxContention();
                at = " (worst run: " + xLabel(fig, fig.x(p)) + ")";
            }
        }
        double treeEvents = 0;
        for (Point p : sweep.series(fig, ALGS.get(1))) {
            treeEvents = Math.max(treeEvents, p.meanContention());
        }
        return Check.property(where + ": OPT-mesh contention-free", "no contention (theorem)",
                worst == 0 ? "0 events in all " + runs + " runs" : "up to " + worst + " events per run" + at, worst == 0,
                String.format(Locale.ROOT, "channel conflicts seen by the flit-level fabric; for comparison OPT-tree "
                        + "averages up to %.1f events per run", treeEvents));
    }

    /** How often the ordering holds in a single placement (the paper claims it for the means only). */
    private static Check perRun(Result sweep, Fig fig, String where, double[] xs) {
        int held = 0;
        int total = 0;
        List<String> exceptions = new ArrayList<>();
        for (double x : xs) {
            Point mesh = sweep.at(fig, ALGS.get(0), x);
            Point tree = sweep.at(fig, ALGS.get(1), x);
            Point u = sweep.at(fig, ALGS.get(2), x);
            int meshNotFirst = 0;
            int uNotLast = 0;
            for (int i = 0; i < mesh.runs(); i++) {
                boolean first = mesh.time(i) < tree.time(i);
                boolean last = tree.time(i) < u.time(i);
                held += first && last ? 1 : 0;
                meshNotFirst += first ? 0 : 1;
                uNotLast += last ? 0 : 1;
                total++;
            }
            if (meshNotFirst + uNotLast > 0) {
                exceptions.add(xLabel(fig, x) + ": " + (meshNotFirst > 0 ? meshNotFirst + "× OPT-mesh ≥ OPT-tree" : "")
                        + (meshNotFirst > 0 && uNotLast > 0 ? ", " : "")
                        + (uNotLast > 0 ? uNotLast + "× OPT-tree ≥ U-mesh" : ""));
            }
        }
        return Check.info(where + ": ordering in single runs", held + " of " + total + " runs",
                exceptions.isEmpty() ? "in every placement" : "exceptions: " + String.join("; ", exceptions)
                        + " (the paper's claim is about the means)");
    }

    /** The averaged numbers at one x. */
    private static Check values(Result sweep, Fig fig, double x) {
        Point mesh = sweep.at(fig, ALGS.get(0), x);
        Point tree = sweep.at(fig, ALGS.get(1), x);
        Point u = sweep.at(fig, ALGS.get(2), x);
        return Check.info("fig. " + fig.number() + ", " + mesh.group() + " nodes, " + kb(mesh.bytes())
                        + ": OPT-mesh / OPT-tree / U-mesh",
                num(mesh.mean()) + " / " + num(tree.mean()) + " / " + num(u.mean()),
                String.format(Locale.ROOT, "mean of %d; %.2f / %.2f / %.2f ms; OPT-tree %.1f contention events per run",
                        mesh.runs(), mesh.meanMillis(), tree.meanMillis(), u.meanMillis(), tree.meanContention()));
    }

    /** Whether the ordering would hold on the means of the first few placements (why quick keeps 16). */
    private static Check fewPlacements(Result sweep) {
        List<String> fails = new ArrayList<>();
        for (Fig fig : Fig.values()) {
            for (double x : sweep.xs(fig)) {
                double mesh = sweep.at(fig, ALGS.get(0), x).meanOfFirst(FEW);
                double tree = sweep.at(fig, ALGS.get(1), x).meanOfFirst(FEW);
                double u = sweep.at(fig, ALGS.get(2), x).meanOfFirst(FEW);
                if (!(mesh < tree && tree < u)) {
                    fails.add("fig. " + fig.number() + " " + xLabel(fig, x) + " (" + num(mesh) + " / " + num(tree)
                            + " / " + num(u) + ")");
                }
            }
        }
        return Check.info("ordering on the means of placements 1–" + FEW + " only",
                fails.isEmpty() ? "holds at every point" : "fails at " + String.join(", ", fails),
                "not the paper's setting (16 placements): why the quick mode keeps all 16");
    }

    private static String xLabel(Fig fig, double x) {
        return fig.bySize() ? kb((long) (x * 1024)) : (int) x + " nodes";
    }

    private static String kb(long bytes) {
        return bytes % 1024 == 0 ? bytes / 1024 + " KB" : bytes + " B";
    }

    private static String kb(long[] sizes) {
        List<String> s = new ArrayList<>();
        for (long b : sizes) {
            s.add(kb(b));
        }
        return String.join(", ", s);
    }

    private static String ints(int[] values) {
        List<String> s = new ArrayList<>();
        for (int v : values) {
            s.add(Integer.toString(v));
        }
        return String.join(", ", s);
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }
}
