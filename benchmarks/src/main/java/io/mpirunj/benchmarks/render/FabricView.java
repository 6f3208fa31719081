package io.mpirunj.benchmarks.render;

import io.mpirunj.collectives.sim.Message;
import io.mpirunj.collectives.sim.Simulation;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a fabric picture shows, independent of the fabric classes: a 2D mesh or torus of
 * {@code columns x rows} nodes, the nodes taking part (with a role and a label), and each
 * message's route through the grid with its step and whether its header had to wait for a
 * channel (contention). The wormhole engine, OPT-mesh/U-mesh and the figure 11–14 benchmarks
 * fill one of these from their own results; {@link #of} fills one from a simulation, a
 * placement and a routing function when no engine ran.
 *
 * <p>Coordinates are (x, y), drawn with x to the right and y up. Which digit of a node address
 * becomes x is the caller's (the topology's) choice; put it in the subtitle.
 *
 * @param title   picture title
 * @param subtitle second line (model, completion, ...); may be empty
 * @param columns extent in x, >= 1
 * @param rows    extent in y, >= 1
 * @param torus   whether the edges wrap around
 * @param nodes   the nodes to draw prominently; other grid nodes are small dots
 * @param routes  the messages, in any order
 */
public record FabricView(String title, String subtitle, int columns, int rows, boolean torus,
                         List<Node> nodes, List<Route> routes) {

    /** A grid position. */
    public record Coord(int x, int y) {
        @Override
        public String toString() {
            return "(" + x + "," + y + ")";
        }
    }

    /** How a node takes part. */
    public enum Role {
        SOURCE,
        DESTINATION,
        /** Takes part without being a destination, e.g. forwards on behalf of others. */
        RELAY
    }

    /** A node to draw: its position, role and a short label shown inside it (e.g. its rank). */
    public record Node(Coord at, Role role, String label) {
        public Node {
            Objects.requireNonNull(at, "at");
            Objects.requireNonNull(role, "role");
            label = label == null ? "" : label;
        }
    }

    /**
     * One message's route.
     *
     * @param step       the schedule step (colours the route)
     * @param hops       grid positions from the sender to the receiver, both included; consecutive
     *                   ones are neighbours (on a torus, across the wrap-around too)
     * @param waited     whether the header waited for a busy channel
     * @param blockedHop where the header waited: i in 0..hops.size()-2 for the link hops[i] ->
     *                   hops[i+1]; {@link #AT_SENDER} (-1) for the sender's injection channel, or
     *                   when it did not wait or the engine does not say where; hops.size()-1
     *                   for the receiver's ejection channel
     * @param label      optional text near the receiving end; may be empty
     */
    public record Route(int step, List<Coord> hops, boolean waited, int blockedHop, String label) {

        /** {@code blockedHop} for the sender's injection channel (or an unknown place). */
        public static final int AT_SENDER = -1;
        public Route {
            hops = List.copyOf(hops);
            if (hops.isEmpty()) {
                throw new IllegalArgumentException("route with no hops (expected: at least the sender)");
            }
            if (blockedHop < AT_SENDER || blockedHop > hops.size() - 1) {
                throw new IllegalArgumentException("blockedHop=" + blockedHop + " (expected: -1.."
                        + (hops.size() - 1) + " for " + hops.size() + " hops)");
            }
            label = label == null ? "" : label;
        }

        /** A contention-free route. */
        public static Route of(int step, List<Coord> hops) {
            return new Route(step, hops, false, -1, "");
        }

        public Coord from() {
            return hops.get(0);
        }

        public Coord to() {
            return hops.get(hops.size() - 1);
        }
    }

    /** Computes a message's grid route from its endpoints. */
    @FunctionalInterface
    public interface Router {
        List<Coord> route(Coord from, Coord to);
    }

    /** Dimension-ordered routing on a mesh, x first, then y. */
    public static final Router XY = (from, to) -> {
        List<Coord> hops = new ArrayList<>();
        int x = from.x();
        int y = from.y();
        hops.add(from);
        while (x != to.x()) {
            x += Integer.signum(to.x() - x);
            hops.add(new Coord(x, y));
        }
        while (y != to.y()) {
            y += Integer.signum(to.y() - y);
            hops.add(new Coord(x, y));
        }
        return hops;
    };

    /** Dimension-ordered routing on a mesh, y first, then x. */
    public static final Router YX = (from, to) -> {
        List<Coord> hops = new ArrayList<>();
        int x = from.x();
        int y = from.y();
        hops.add(from);
        while (y != to.y()) {
            y += Integer.signum(to.y() - y);
            hops.add(new Coord(x, y));
        }
        while (x != to.x()) {
            x += Integer.signum(to.x() - x);
            hops.add(new Coord(x, y));
        }
        return hops;
    };

    public FabricView {
        Objects.requireNonNull(title, "title");
        subtitle = subtitle == null ? "" : subtitle;
        if (columns < 1 || rows < 1) {
            throw new IllegalArgumentException("columns=" + columns + " rows=" + rows + " (expected: >= 1)");
        }
        nodes = List.copyOf(nodes);
        routes = List.copyOf(routes);
        for (Node n : nodes) {
            check(n.at(), columns, rows, "node");
        }
        for (Route r : routes) {
            Coord previous = null;
            for (Coord c : r.hops()) {
                check(c, columns, rows, "route hop");
                if (previous != null && !neighbours(previous, c, columns, rows, torus)) {
                    throw new IllegalArgumentException("route hops " + previous + " -> " + c
                            + " are not neighbours on a " + columns + "x" + rows + (torus ? " torus" : " mesh"));
                }
                previous = c;
            }
        }
    }

    private static void check(Coord c, int columns, int rows, String what) {
        if (c.x() < 0 || c.x() >= columns || c.y() < 0 || c.y() >= rows) {
            throw new IllegalArgumentException(what + " " + c + " outside the grid (expected: 0 <= x < " + columns
                    + ", 0 <= y < " + rows + ")");
        }
    }

    static boolean neighbours(Coord a, Coord b, int columns, int rows, boolean torus) {
        int dx = Math.abs(a.x() - b.x());
        int dy = Math.abs(a.y() - b.y());
        if (torus) {
            dx = Math.min(dx, columns - dx);
            dy = Math.min(dy, rows - dy);
        }
        return dx + dy == 1;
    }

    /**
     * A view of a simulated rooted schedule placed on a mesh: rank r sits at {@code placement[r]},
     * the root is the source, every other rank a destination, and each delivered message follows
     * {@code router} (no contention information: no engine ran). Dropped copies are left out.
     */
    public static FabricView of(String title, Simulation sim, int columns, int rows, List<Coord> placement,
                                Router router) {
        int ranks = sim.schedule().ranks();
        if (placement.size() != ranks) {
            throw new IllegalArgumentException("placement has " + placement.size() + " positions (expected: ranks="
                    + ranks + ")");
        }
        List<Node> nodes = new ArrayList<>(ranks);
        for (int r = 0; r < ranks; r++) {
            nodes.add(new Node(placement.get(r), r == sim.schedule().root() ? Role.SOURCE : Role.DESTINATION,
                    Integer.toString(r)));
        }
        List<Route> routes = new ArrayList<>();
        for (Message m : sim.messages()) {
            if (!m.dropped()) {
                routes.add(Route.of(m.step(), router.route(placement.get(m.src()), placement.get(m.dst()))));
            }
        }
        String subtitle = sim.schedule().algorithm() + " · model " + sim.model() + " · completion "
                + Draw.time(sim.completion());
        return new FabricView(title, subtitle, columns, rows, false, nodes, routes);
    }
}
