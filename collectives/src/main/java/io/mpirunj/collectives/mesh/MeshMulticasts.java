package io.mpirunj.collectives.mesh;

import io.mpirunj.collectives.multicast.MulticastAlgorithms;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.star.StarBroadcasts;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.topology.Mesh;
import io.mpirunj.fabric.topology.StarGraph;
import io.mpirunj.fabric.topology.Topology;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The placement-aware entry point for multicast schedules on a fabric: the topology-dependent
 * algorithms ({@code opt-mesh}, {@code u-mesh}) by name, and every placement-oblivious algorithm
 * of {@link MulticastAlgorithms} (e.g. {@code opt-tree}, which then simply runs on the same
 * placement). Used by {@code mpirun-j schedule/simulate --fabric ...}.
 */
public final class MeshMulticasts {

    /** A registered placement-aware algorithm. */
    public record Entry(String name, String description, PlacedMulticastBuilder builder) {
    }

    private static final Map<String, Entry> TABLE = new LinkedHashMap<>();

    static {
        TABLE.put(OptMeshMulticast.NAME, new Entry(OptMeshMulticast.NAME,
                "OPT-tree laid onto the dimension-ordered chain: contention-free on a mesh (paper 000)",
                (k, root, bytes, model, topology, nodeOf) ->
                        OptMeshMulticast.build(k, root, bytes, model, mesh(topology, OptMeshMulticast.NAME), nodeOf)));
        TABLE.put(UMeshMulticast.NAME, new Entry(UMeshMulticast.NAME,
                "binomial recursive halving of the dimension-ordered chain (McKinley et al. 1994)",
                (k, root, bytes, model, topology, nodeOf) ->
                        UMeshMulticast.build(k, root, bytes, model, mesh(topology, UMeshMulticast.NAME), nodeOf)));
        for (String name : StarBroadcasts.NAMES) { // bcasts over every node of a star graph (paper 004)
            TABLE.put(name, new Entry(name, StarBroadcasts.description(name),
                    (k, root, bytes, model, topology, nodeOf) -> StarBroadcasts.build(name, k, root, bytes, topology, nodeOf)));
        }
    }

    private MeshMulticasts() {
    }

    /** The one-line description of placement-aware algorithm {@code name}. */
    public static String description(String name) {
        Entry e = TABLE.get(name);
        if (e == null) {
            throw new IllegalArgumentException("unknown placement-aware multicast '" + name + "' (expected one of: "
                    + String.join(", ", TABLE.keySet()) + ")");
        }
        return e.description();
    }

    /** The placement-aware algorithms' names (the others come from {@link MulticastAlgorithms}). */
    public static List<String> names() {
        return List.copyOf(TABLE.keySet());
    }

    /** Every name {@link #multicast} accepts: placement-aware first, then {@link MulticastAlgorithms#names()}. */
    public static List<String> allNames() {
        List<String> all = new ArrayList<>(TABLE.keySet());
        all.addAll(MulticastAlgorithms.names());
        return all;
    }

    /** True when placement-aware algorithm {@code name} can run on {@code topology} (star ones need a star graph). */
    public static boolean fits(String name, Topology topology) {
        return StarBroadcasts.NAMES.contains(name) ? topology instanceof StarGraph : topology instanceof Mesh;
    }

    /** What placement-aware algorithm {@code name} needs, for error messages. */
    public static String requirement(String name) {
        return StarBroadcasts.NAMES.contains(name) ? "a star graph fabric with one rank per node"
                : "a mesh, torus or hypercube fabric";
    }

    /** True when {@code name} is a placement-aware algorithm of this table. */
    public static boolean isPlacementAware(String name) {
        return TABLE.containsKey(name);
    }

    /**
     * A multicast over {@code ranks} group members placed at {@code nodeOf} on {@code topology},
     * rooted at index {@code root}. Placement-oblivious algorithms ignore the topology and the
     * placement. An unknown name fails listing the valid ones.
     */
    public static Schedule multicast(String name, int ranks, int root, long messageBytes, CostModel model,
                                     Topology topology, int[] nodeOf) {
        Entry entry = name == null ? null : TABLE.get(name);
        if (entry != null) {
            return entry.builder().build(ranks, root, messageBytes, model, topology, nodeOf);
        }
        if (name != null && MulticastAlgorithms.names().contains(name)) {
            return MulticastAlgorithms.multicast(name, ranks, root, messageBytes, model);
        }
        throw new IllegalArgumentException("unknown multicast algorithm '" + name + "' (expected one of: "
                + String.join(", ", allNames()) + ")");
    }

    private static Mesh mesh(Topology topology, String algorithm) {
        if (topology instanceof Mesh mesh) {
            return mesh;
        }
        throw new IllegalArgumentException(algorithm + " needs a mesh, torus or hypercube (got " + topology + ")");
    }

    static void check(int ranks, int root, long messageBytes, int[] nodeOf) {
        Schedule.checkRooted(ranks, root, messageBytes);
        if (nodeOf.length != ranks) {
            throw new IllegalArgumentException("nodeOf has " + nodeOf.length + " entries (expected: ranks=" + ranks + ")");
        }
    }
}
