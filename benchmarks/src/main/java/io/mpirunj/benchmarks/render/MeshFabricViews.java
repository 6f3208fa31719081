package io.mpirunj.benchmarks.render;

import io.mpirunj.benchmarks.render.FabricView.Coord;
import io.mpirunj.benchmarks.render.FabricView.Node;
import io.mpirunj.benchmarks.render.FabricView.Role;
import io.mpirunj.benchmarks.render.FabricView.Route;
import io.mpirunj.collectives.sim.Message;
import io.mpirunj.collectives.sim.Simulation;
import io.mpirunj.fabric.model.Contention;
import io.mpirunj.fabric.topology.Mesh;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds a {@link FabricView} from a simulation on a 1D or 2D {@link Mesh} (mesh or torus): the
 * one place that knows both the fabric classes and the picture's input record.
 *
 * <p>Coordinates are drawn as the mesh writes addresses: x is the first written (highest)
 * dimension, y the second, so node {@code 3/2} is drawn at (3,2), as in paper 000's 6×6
 * example. Each message follows the path the network reported ({@link Message#path()}), or the
 * topology's default route when the simulation ran on a plain cost model. A message that
 * waited is marked where its first {@link Contention} was: on a link, at the sender
 * (injection channel) or at the receiver (ejection channel).
 */
public final class MeshFabricViews {

    private MeshFabricViews() {
    }

    /**
     * @param nodeOf nodeOf[r] is the mesh node schedule rank r ran on (as given to the simulator)
     */
    public static FabricView of(String title, Simulation sim, Mesh mesh, int[] nodeOf) {
        if (mesh.dimensions() > 2) {
            throw new IllegalArgumentException("a fabric picture needs a 1D or 2D mesh (got " + mesh + ")");
        }
        int ranks = sim.schedule().ranks();
        if (nodeOf.length != ranks) {
            throw new IllegalArgumentException("nodeOf has " + nodeOf.length + " entries (expected: ranks=" + ranks + ")");
        }
        List<Node> nodes = new ArrayList<>(ranks);
        for (int r = 0; r < ranks; r++) {
            nodes.add(new Node(coord(mesh, nodeOf[r]), r == sim.schedule().root() ? Role.SOURCE : Role.DESTINATION,
                    Integer.toString(r)));
        }
        List<Message> messages = sim.messages();
        List<Route> routes = new ArrayList<>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            Message m = messages.get(i);
            if (m.dropped()) {
                continue;
            }
            int[] path = m.path().isEmpty() ? mesh.route(nodeOf[m.src()], nodeOf[m.dst()])
                    : m.path().stream().mapToInt(Integer::intValue).toArray();
            List<Coord> hops = new ArrayList<>(path.length);
            for (int node : path) {
                hops.add(coord(mesh, node));
            }
            Contention first = firstContention(sim.contentions(), i);
            boolean waited = m.waited() > 0 || first != null;
            int blocked = first == null ? Route.AT_SENDER : blockedHop(mesh, path, first);
            String label = waited ? "waited " + Draw.time(m.waited() > 0 ? m.waited() : first.duration()) : "";
            routes.add(new Route(m.step(), hops, waited, blocked, label));
        }
        String subtitle = sim.schedule().algorithm() + " · " + sim.model() + " · " + sim.evaluation().name()
                .toLowerCase(java.util.Locale.ROOT) + " evaluation · completion " + Draw.time(sim.completion())
                + " · " + sim.contentions().size() + " contention event(s)";
        int columns = mesh.extent(0);
        int rows = mesh.dimensions() == 2 ? mesh.extent(1) : 1;
        return new FabricView(title, subtitle, columns, rows, mesh.wraps(), nodes, routes);
    }

    /** Where {@code node} is drawn: (first written coordinate, second written coordinate). */
    public static Coord coord(Mesh mesh, int node) {
        return new Coord(mesh.coordinate(node, 0), mesh.dimensions() == 2 ? mesh.coordinate(node, 1) : 0);
    }

    private static Contention firstContention(List<Contention> contentions, int message) {
        for (Contention c : contentions) {
            if (c.message() == message) {
                return c;
            }
        }
        return null;
    }

    private static int blockedHop(Mesh mesh, int[] path, Contention c) {
        if (c.channelId() < mesh.linkChannels()) {
            for (int h = 0; h + 1 < path.length; h++) {
                if (mesh.channel(path[h], path[h + 1]) == c.channelId()) {
                    return h;
                }
            }
            return Route.AT_SENDER;
        }
        // Injection and ejection channels are named "inj <node>" and "ej <node>" by the wormhole engine.
        return c.channel().startsWith("ej") ? path.length - 1 : Route.AT_SENDER;
    }
}
