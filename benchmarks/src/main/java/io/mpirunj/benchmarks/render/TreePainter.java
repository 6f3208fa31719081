package io.mpirunj.benchmarks.render;

import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.sim.Simulation;
import java.awt.Color;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;

/**
 * Lays out and paints a {@link ScheduleTree} like the papers' tree figures: the root at the top,
 * each parent's children left to right in send order, each edge labelled with the send order,
 * the step and the times (send start -> delivery).
 */
final class TreePainter {

    private static final double RADIUS = 16;
    private static final double LEVEL_GAP = 118;
    private static final double LABEL_AT = 0.60;
    private static final double MARGIN = 30;

    private final Simulation sim;
    private final ScheduleTree tree;
    private final IntFunction<String> nodeLabel;
    private final double[] x;
    private final double slot;
    private final List<Draw.LegendItem> legend;
    private final double headerHeight;
    private final int width;
    private final int height;

    TreePainter(Simulation sim, IntFunction<String> nodeLabel) {
        this.sim = sim;
        this.tree = ScheduleTree.of(sim);
        this.nodeLabel = nodeLabel;
        FontMetrics fm = Draw.metrics(Draw.LABEL);
        double widest = 0;
        for (int r = 0; r < tree.ranks(); r++) {
            for (ScheduleTree.Edge e : tree.children(r)) {
                for (String line : edgeLines(e)) {
                    widest = Math.max(widest, fm.stringWidth(line));
                }
            }
        }
        double labels = 0;
        if (nodeLabel != null) {
            FontMetrics small = Draw.metrics(Draw.SMALL);
            for (int r = 0; r < tree.ranks(); r++) {
                String text = nodeLabel.apply(r);
                labels = Math.max(labels, text == null ? 0 : small.stringWidth(text));
            }
        }
        this.slot = Math.max(Math.max(2 * RADIUS + 14, (widest + 14) / LABEL_AT), 2 * RADIUS + 2 * labels + 16);
        this.x = new double[tree.ranks()];
        double next = 0;
        for (int root : tree.roots()) {
            next = place(root, next);
        }
        int leaves = (int) Math.round(next);
        legend = legendItems();
        double contentWidth = Math.max(leaves * slot, 560);
        double titleWidth = Math.max(Draw.metrics(Draw.TITLE).stringWidth(title()),
                Draw.metrics(Draw.SUBTITLE).stringWidth(subtitle()));
        this.width = (int) Math.ceil(Math.max(contentWidth, titleWidth) + 2 * MARGIN);
        this.headerHeight = 78 + Draw.legendHeight(legend, width - 2 * MARGIN);
        this.height = (int) Math.ceil(headerHeight + tree.maxDepth() * LEVEL_GAP + 2 * RADIUS + MARGIN + 10);
        double shift = MARGIN + (width - 2 * MARGIN - leaves * slot) / 2 + slot / 2;
        for (int r = 0; r < x.length; r++) {
            x[r] = shift + x[r] * slot;
        }
    }

    /** Assigns slot positions under {@code node} from {@code next}; returns the next free slot. */
    private double place(int root, double start) {
        // Post-order without recursion: leaves take consecutive slots, parents sit over their children.
        double next = start;
        List<int[]> stack = new ArrayList<>();
        stack.add(new int[] {root, 0});
        while (!stack.isEmpty()) {
            int[] top = stack.get(stack.size() - 1);
            List<ScheduleTree.Edge> kids = tree.children(top[0]);
            if (kids.isEmpty()) {
                x[top[0]] = next++;
                stack.remove(stack.size() - 1);
            } else if (top[1] < kids.size()) {
                stack.add(new int[] {kids.get(top[1]++).child(), 0});
            } else {
                x[top[0]] = (x[kids.get(0).child()] + x[kids.get(kids.size() - 1).child()]) / 2;
                stack.remove(stack.size() - 1);
            }
        }
        return next;
    }

    Picture picture() {
        return Picture.of(title() + " — tree", width, height, this::paint);
    }

    private String title() {
        Schedule s = sim.schedule();
        return s.algorithm() + " " + s.collective().label() + " — k=" + s.ranks() + ", root " + s.root();
    }

    private String subtitle() {
        return "model " + sim.model() + " · " + sim.evaluation().name().toLowerCase(Locale.ROOT)
                + " evaluation · completion " + Draw.time(sim.completion())
                + " · edge label: #send order · step, send start → delivery";
    }

    private static String[] edgeLines(ScheduleTree.Edge e) {
        String head = "#" + e.order() + " · step " + e.step() + (e.messages() > 1 ? " · " + e.messages() + " msgs" : "");
        return new String[] {head, Draw.time(e.start()) + " → " + Draw.time(e.end())};
    }

    private List<Draw.LegendItem> legendItems() {
        List<Draw.LegendItem> items = new ArrayList<>();
        int steps = tree.maxStep();
        for (int s = 1; s <= Math.min(steps, 10); s++) {
            items.add(new Draw.LegendItem("step " + s + (steps > 10 && s == 10 ? " (colours repeat)" : ""),
                    Draw.stroked(Draw.step(s), Draw.stroke(2.5f))));
        }
        items.add(new Draw.LegendItem("root", (g, x0, y0, w, h) -> Draw.disc(g, x0 + w / 2, y0 + h / 2, 6, Draw.INK, null)));
        items.add(new Draw.LegendItem("completes last",
                (g, x0, y0, w, h) -> Draw.disc(g, x0 + w / 2, y0 + h / 2, 6, Color.WHITE, Draw.ALERT)));
        if (!tree.extras().isEmpty()) {
            items.add(new Draw.LegendItem("other copy (dropped / not first)", Draw.stroked(Draw.MUTED, Draw.dashed(1.5f))));
        }
        return items;
    }

    private double y(int rank) {
        return headerHeight + RADIUS + tree.depth(rank) * LEVEL_GAP;
    }

    private void paint(Graphics2D g) {
        Draw.text(g, Draw.TITLE, Draw.INK, title(), MARGIN, 28);
        Draw.text(g, Draw.SUBTITLE, Draw.MUTED, subtitle(), MARGIN, 48);
        Draw.legend(g, MARGIN, 60, width - 2 * MARGIN, legend);

        for (ScheduleTree.Edge e : tree.extras()) {
            g.setColor(Draw.MUTED);
            g.setStroke(Draw.dashed(1.5f));
            double[] ends = clip(e.parent(), e.child());
            Draw.arrow(g, ends[0], ends[1], ends[2], ends[3], 8);
        }
        for (int p = 0; p < tree.ranks(); p++) {
            for (ScheduleTree.Edge e : tree.children(p)) {
                g.setColor(Draw.step(e.step()));
                g.setStroke(Draw.stroke(2.5f));
                double[] ends = clip(p, e.child());
                Draw.arrow(g, ends[0], ends[1], ends[2], ends[3], 10);
            }
        }
        for (int p = 0; p < tree.ranks(); p++) {
            for (ScheduleTree.Edge e : tree.children(p)) {
                double lx = x[p] + (x[e.child()] - x[p]) * LABEL_AT;
                double ly = y(p) + (y(e.child()) - y(p)) * LABEL_AT;
                Draw.box(g, Draw.LABEL, Draw.INK, Draw.step(e.step()), lx, ly, edgeLines(e));
            }
        }
        double completion = sim.completion();
        for (int r = 0; r < tree.ranks(); r++) {
            boolean isRoot = r == tree.root();
            int parent = tree.parent(r);
            Color tint = isRoot ? Draw.INK : parent < 0 ? Color.LIGHT_GRAY
                    : Draw.lighter(Draw.step(stepInto(r)), 0.75);
            boolean last = !isRoot && completion > 0 && sim.rankCompletion(r) == completion;
            Draw.disc(g, x[r], y(r), RADIUS, tint, last ? Draw.ALERT : isRoot ? Draw.INK : Draw.MUTED);
            if (last) {
                g.setStroke(Draw.stroke(2.5f));
                g.draw(new java.awt.geom.Ellipse2D.Double(x[r] - RADIUS - 3, y(r) - RADIUS - 3, 2 * RADIUS + 6, 2 * RADIUS + 6));
            }
            Draw.centred(g, Draw.NODE, isRoot ? Color.WHITE : Draw.INK, Integer.toString(r), x[r], y(r));
            String extra = nodeLabel == null ? null : nodeLabel.apply(r);
            if (extra != null && !extra.isEmpty()) {
                Draw.text(g, Draw.SMALL, Draw.MUTED, extra, x[r] + RADIUS + 5, y(r) - RADIUS + 4);
            }
        }
    }

    private int stepInto(int rank) {
        for (ScheduleTree.Edge e : tree.children(tree.parent(rank))) {
            if (e.child() == rank) {
                return e.step();
            }
        }
        return 1;
    }

    /** The segment between two node centres, shortened to the circles' rims. */
    private double[] clip(int from, int to) {
        double x1 = x[from];
        double y1 = y(from);
        double x2 = x[to];
        double y2 = y(to);
        double len = Math.hypot(x2 - x1, y2 - y1);
        if (len < 2 * RADIUS + 1) {
            return new double[] {x1, y1, x2, y2};
        }
        double ux = (x2 - x1) / len;
        double uy = (y2 - y1) / len;
        return new double[] {x1 + ux * RADIUS, y1 + uy * RADIUS, x2 - ux * (RADIUS + 2), y2 - uy * (RADIUS + 2)};
    }
}
