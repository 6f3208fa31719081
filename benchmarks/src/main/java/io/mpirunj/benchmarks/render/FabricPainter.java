package io.mpirunj.benchmarks.render;

import io.mpirunj.benchmarks.render.FabricView.Coord;
import io.mpirunj.benchmarks.render.FabricView.Node;
import io.mpirunj.benchmarks.render.FabricView.Role;
import io.mpirunj.benchmarks.render.FabricView.Route;
import java.awt.Color;
import java.awt.Graphics2D;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Paints a {@link FabricView}: the grid's channels in light grey, each route as a polyline in
 * its step's colour (routes sharing a channel are drawn side by side in separate lanes), a red X
 * where a header waited, and the participating nodes on top.
 */
final class FabricPainter {

    private static final double MARGIN = 30;
    private static final double AXIS = 28;
    private static final double NODE_RADIUS = 12;

    private final FabricView view;
    private final double cell;
    private final double lane;
    private final int[] lanes;
    private final List<Draw.LegendItem> legend;
    private final double left;
    private final double top;
    private final int width;
    private final int height;

    FabricPainter(FabricView view) {
        this.view = view;
        this.cell = Math.max(28, Math.min(96, 900.0 / Math.max(view.columns(), view.rows())));
        this.lane = Math.min(5, cell / 10);
        this.lanes = assignLanes(view.routes());
        double gridWidth = (view.columns() - 1) * cell + cell;
        double titleWidth = Math.max(Draw.metrics(Draw.TITLE).stringWidth(view.title()),
                Draw.metrics(Draw.SUBTITLE).stringWidth(view.subtitle()));
        this.width = (int) Math.ceil(Math.max(gridWidth + AXIS + 2 * MARGIN, Math.max(titleWidth + 2 * MARGIN, 520)));
        this.legend = legendItems();
        this.left = MARGIN + AXIS + cell / 2 + (width - 2 * MARGIN - AXIS - gridWidth) / 2;
        this.top = 78 + Draw.legendHeight(legend, width - 2 * MARGIN) + 12 + cell / 2;
        this.height = (int) Math.ceil(top + (view.rows() - 1) * cell + cell / 2 + AXIS + MARGIN);
    }

    Picture picture() {
        return Picture.of(view.title() + " — fabric", width, height, this::paint);
    }

    private List<Draw.LegendItem> legendItems() {
        TreeSet<Integer> steps = new TreeSet<>();
        boolean waited = false;
        for (Route r : view.routes()) {
            steps.add(r.step());
            waited |= r.waited();
        }
        List<Draw.LegendItem> items = new ArrayList<>();
        for (int s : steps) {
            items.add(new Draw.LegendItem("step " + s, Draw.stroked(Draw.step(s), Draw.stroke(3f))));
        }
        items.add(new Draw.LegendItem("source", (g, x, y, w, h) -> Draw.disc(g, x + w / 2, y + h / 2, 6, Draw.INK, null)));
        items.add(new Draw.LegendItem("destination",
                (g, x, y, w, h) -> Draw.disc(g, x + w / 2, y + h / 2, 6, DESTINATION, Draw.INK)));
        if (view.nodes().stream().anyMatch(n -> n.role() == Role.RELAY)) {
            items.add(new Draw.LegendItem("relay", (g, x, y, w, h) -> Draw.disc(g, x + w / 2, y + h / 2, 6, RELAY, Draw.INK)));
        }
        items.add(new Draw.LegendItem(waited ? "header blocked (contention)" : "header blocked (contention): none",
                (g, x, y, w, h) -> Draw.cross(g, x + w / 2, y + h / 2, 5)));
        return items;
    }

    private static final Color DESTINATION = new Color(0xFF, 0xD8, 0xA8);
    private static final Color RELAY = new Color(0xD8, 0xD8, 0xD8);

    /** Greedy lanes 0, 1, -1, 2, -2, ...: a route takes the first lane free on all its channels. */
    private int[] assignLanes(List<Route> routes) {
        Map<Long, Set<Integer>> used = new HashMap<>();
        int[] result = new int[routes.size()];
        for (int i = 0; i < routes.size(); i++) {
            List<Coord> hops = routes.get(i).hops();
            List<Long> channels = new ArrayList<>();
            for (int h = 0; h + 1 < hops.size(); h++) {
                channels.add(channelKey(hops.get(h), hops.get(h + 1)));
            }
            int chosen = 0;
            for (int n = 0; ; n++) {
                int candidate = n % 2 == 0 ? -(n / 2) : (n + 1) / 2;
                boolean free = true;
                for (long c : channels) {
                    if (used.getOrDefault(c, Set.of()).contains(candidate)) {
                        free = false;
                        break;
                    }
                }
                if (free) {
                    chosen = candidate;
                    break;
                }
            }
            for (long c : channels) {
                used.computeIfAbsent(c, k -> new HashSet<>()).add(chosen);
            }
            result[i] = chosen;
        }
        return result;
    }

    private static long channelKey(Coord a, Coord b) {
        long ka = ((long) a.x() << 20) | a.y();
        long kb = ((long) b.x() << 20) | b.y();
        return Math.min(ka, kb) << 40 | Math.max(ka, kb);
    }

    private double px(int x) {
        return left + x * cell;
    }

    private double py(int y) {
        return top + (view.rows() - 1 - y) * cell;
    }

    /** Unit step from a to b in grid terms, accounting for the torus wrap. */
    private int[] direction(Coord a, Coord b) {
        int dx = b.x() - a.x();
        int dy = b.y() - a.y();
        if (dx > 1) {
            dx -= view.columns();
        } else if (dx < -1) {
            dx += view.columns();
        }
        if (dy > 1) {
            dy -= view.rows();
        } else if (dy < -1) {
            dy += view.rows();
        }
        return new int[] {Integer.signum(dx), Integer.signum(dy)};
    }

    private static boolean wraps(Coord a, Coord b) {
        return Math.abs(a.x() - b.x()) + Math.abs(a.y() - b.y()) > 1;
    }

    /** Pixel positions of a route's hops, shifted into its lane. */
    private double[][] lanePoints(Route r, int laneIndex) {
        List<Coord> hops = r.hops();
        double d = laneIndex * lane;
        double[][] points = new double[hops.size()][2];
        for (int i = 0; i < hops.size(); i++) {
            boolean horizontal = false;
            boolean vertical = false;
            if (i > 0) {
                int[] dir = direction(hops.get(i - 1), hops.get(i));
                horizontal |= dir[0] != 0;
                vertical |= dir[1] != 0;
            }
            if (i + 1 < hops.size()) {
                int[] dir = direction(hops.get(i), hops.get(i + 1));
                horizontal |= dir[0] != 0;
                vertical |= dir[1] != 0;
            }
            points[i][0] = px(hops.get(i).x()) + (vertical ? d : 0);
            points[i][1] = py(hops.get(i).y()) - (horizontal ? d : 0);
        }
        return points;
    }

    private void paint(Graphics2D g) {
        Draw.text(g, Draw.TITLE, Draw.INK, view.title(), MARGIN, 28);
        Draw.text(g, Draw.SUBTITLE, Draw.MUTED, view.subtitle(), MARGIN, 48);
        Draw.legend(g, MARGIN, 60, width - 2 * MARGIN, legend);
        paintGrid(g);

        List<Route> routes = view.routes();
        List<double[][]> drawn = new ArrayList<>(routes.size());
        for (int i = 0; i < routes.size(); i++) {
            Route r = routes.get(i);
            double[][] p = lanePoints(r, lanes[i]);
            drawn.add(p);
            g.setColor(Draw.step(r.step()));
            g.setStroke(Draw.stroke(2.6f));
            List<Coord> hops = r.hops();
            for (int h = 0; h + 1 < hops.size(); h++) {
                boolean last = h + 2 == hops.size();
                if (wraps(hops.get(h), hops.get(h + 1))) {
                    int[] dir = direction(hops.get(h), hops.get(h + 1));
                    double sx = dir[0] * cell / 2;
                    double sy = -dir[1] * cell / 2;
                    g.setStroke(Draw.dashed(2.6f));
                    Draw.line(g, p[h][0], p[h][1], p[h][0] + sx, p[h][1] + sy);
                    g.setStroke(Draw.stroke(2.6f));
                    segment(g, p[h + 1][0] - sx, p[h + 1][1] - sy, p[h + 1][0], p[h + 1][1], last);
                } else {
                    segment(g, p[h][0], p[h][1], p[h + 1][0], p[h + 1][1], last);
                }
            }
        }
        for (Node n : view.nodes()) {
            double cx = px(n.at().x());
            double cy = py(n.at().y());
            Color fill = n.role() == Role.SOURCE ? Draw.INK : n.role() == Role.DESTINATION ? DESTINATION : RELAY;
            Draw.disc(g, cx, cy, NODE_RADIUS, fill, Draw.INK);
            Draw.centred(g, Draw.SMALL, n.role() == Role.SOURCE ? Color.WHITE : Draw.INK, n.label(), cx, cy);
            Draw.text(g, Draw.SMALL, Draw.MUTED, n.at().toString(), cx + NODE_RADIUS - 2, cy + NODE_RADIUS + 10);
        }
        for (int i = 0; i < routes.size(); i++) {
            Route r = routes.get(i);
            double[][] p = drawn.get(i);
            if (!r.label().isEmpty()) {
                double[] end = p[p.length - 1];
                Draw.box(g, Draw.SMALL, Draw.INK, Draw.step(r.step()), end[0] + 26, end[1] - 18, r.label());
            }
            if (r.waited()) {
                int h = r.blockedHop();
                if (h >= 0 && h + 1 < p.length && !wraps(r.hops().get(h), r.hops().get(h + 1))) {
                    Draw.cross(g, (p[h][0] + p[h + 1][0]) / 2, (p[h][1] + p[h + 1][1]) / 2, 6);
                } else if (h >= 0 && h + 1 < p.length) {
                    int[] dir = direction(r.hops().get(h), r.hops().get(h + 1));
                    Draw.cross(g, p[h][0] + dir[0] * cell / 3, p[h][1] - dir[1] * cell / 3, 6);
                } else if (h >= 0 && p.length > 1) {
                    // The receiver's ejection channel.
                    Draw.cross(g, p[h][0] - NODE_RADIUS - 6, p[h][1] + NODE_RADIUS + 6, 6);
                } else {
                    Draw.cross(g, p[0][0] + NODE_RADIUS + 6, p[0][1] - NODE_RADIUS - 6, 6);
                }
            }
        }
    }

    private void segment(Graphics2D g, double x1, double y1, double x2, double y2, boolean last) {
        if (!last) {
            Draw.line(g, x1, y1, x2, y2);
            return;
        }
        double len = Math.hypot(x2 - x1, y2 - y1);
        double cut = Math.min(NODE_RADIUS + 1, len / 2);
        double ex = x2 - (x2 - x1) / len * cut;
        double ey = y2 - (y2 - y1) / len * cut;
        Draw.arrow(g, x1, y1, ex, ey, 9);
    }

    private void paintGrid(Graphics2D g) {
        g.setColor(Draw.GRID);
        g.setStroke(Draw.stroke(1.2f));
        for (int y = 0; y < view.rows(); y++) {
            Draw.line(g, px(0), py(y), px(view.columns() - 1), py(y));
            if (view.torus()) {
                g.setStroke(Draw.dashed(1.2f));
                Draw.line(g, px(0) - cell / 2, py(y), px(0), py(y));
                Draw.line(g, px(view.columns() - 1), py(y), px(view.columns() - 1) + cell / 2, py(y));
                g.setStroke(Draw.stroke(1.2f));
            }
        }
        for (int x = 0; x < view.columns(); x++) {
            Draw.line(g, px(x), py(0), px(x), py(view.rows() - 1));
            if (view.torus()) {
                g.setStroke(Draw.dashed(1.2f));
                Draw.line(g, px(x), py(view.rows() - 1) - cell / 2, px(x), py(view.rows() - 1));
                Draw.line(g, px(x), py(0), px(x), py(0) + cell / 2);
                g.setStroke(Draw.stroke(1.2f));
            }
        }
        for (int x = 0; x < view.columns(); x++) {
            for (int y = 0; y < view.rows(); y++) {
                Draw.disc(g, px(x), py(y), 3, new Color(0xAA, 0xAA, 0xAA), null);
            }
            Draw.centred(g, Draw.SMALL, Draw.MUTED, Integer.toString(x), px(x), py(0) + cell / 2 + 12);
        }
        for (int y = 0; y < view.rows(); y++) {
            Draw.centred(g, Draw.SMALL, Draw.MUTED, Integer.toString(y), px(0) - cell / 2 - 12, py(y));
        }
        Draw.centred(g, Draw.SMALL, Draw.MUTED, "x", px(view.columns() - 1) + cell / 2 + 4, py(0) + cell / 2 + 12);
        Draw.centred(g, Draw.SMALL, Draw.MUTED, "y", px(0) - cell / 2 - 12, py(view.rows() - 1) - cell / 2);
    }
}
