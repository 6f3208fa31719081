package io.mpirunj.collectives.mesh;

import io.mpirunj.collectives.catalogue.AlgorithmCatalogue;
import io.mpirunj.collectives.multicast.MulticastAlgorithms;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.topology.Topology;
import io.mpirunj.runtime.spi.AlgorithmTrait;
import io.mpirunj.runtime.spi.CollectiveOp;
import java.util.ArrayList;
import java.util.List;

/**
 * The placement-aware multicasts of the {@link AlgorithmCatalogue} ({@code opt-mesh}, {@code u-mesh}, the
 * star broadcasts), and every placement-oblivious tree of {@link MulticastAlgorithms} run on a placement:
 * a view for {@code mpirun-j schedule/simulate --fabric ...} and the benchmarks. The entries are
 * declared in the catalogue.
 */
public final class MeshMulticasts {

    private MeshMulticasts() {
    }

    private static List<AlgorithmCatalogue.Entry> placed() {
        return AlgorithmCatalogue.of(CollectiveOp.MULTICAST).stream()
                .filter(e -> e.traits().contains(AlgorithmTrait.PLACEMENT_AWARE)).toList();
    }

    /** The one-line description of placement-aware algorithm {@code name}. */
    public static String description(String name) {
        return entry(name).description();
    }

    /** The placement-aware algorithms' names (the others come from {@link MulticastAlgorithms}). */
    public static List<String> names() {
        return placed().stream().map(AlgorithmCatalogue.Entry::name).toList();
    }

    /** Every name {@link #multicast} accepts: placement-aware first, then {@link MulticastAlgorithms#names()}. */
    public static List<String> allNames() {
        List<String> all = new ArrayList<>(names());
        all.addAll(MulticastAlgorithms.names());
        return all;
    }

    /** True when placement-aware algorithm {@code name} can run on {@code topology} (star ones need a star graph). */
    public static boolean fits(String name, Topology topology) {
        AlgorithmCatalogue.Entry e = entry(name);
        return e.traits().contains(AlgorithmTrait.STAR_FABRIC) ? e.fits(topology, topology.nodes())
                : e.fits(topology, 0);
    }

    /** What placement-aware algorithm {@code name} needs, for error messages. */
    public static String requirement(String name) {
        return entry(name).requirement();
    }

    /** True when {@code name} is a placement-aware algorithm. */
    public static boolean isPlacementAware(String name) {
        return names().contains(name);
    }

    private static AlgorithmCatalogue.Entry entry(String name) {
        AlgorithmCatalogue.Entry e = AlgorithmCatalogue.find(CollectiveOp.MULTICAST, name);
        if (e == null || !e.traits().contains(AlgorithmTrait.PLACEMENT_AWARE)) {
            throw new IllegalArgumentException("unknown placement-aware multicast '" + name + "' (expected one of: "
                    + String.join(", ", names()) + ")");
        }
        return e;
    }

    /**
     * A multicast over {@code ranks} group members placed at {@code nodeOf} on {@code topology},
     * rooted at index {@code root}. Placement-oblivious algorithms ignore the topology and the
     * placement. An unknown name fails listing the valid ones.
     */
    public static Schedule multicast(String name, int ranks, int root, long messageBytes, CostModel model,
                                     Topology topology, int[] nodeOf) {
        AlgorithmCatalogue.Entry e = name == null ? null : AlgorithmCatalogue.find(CollectiveOp.MULTICAST, name);
        if (e == null || !e.simulable()) {
            throw new IllegalArgumentException("unknown multicast algorithm '" + name + "' (expected one of: "
                    + String.join(", ", allNames()) + ")");
        }
        return e.build(new AlgorithmCatalogue.Shape(ranks, root, messageBytes, model, topology, nodeOf));
    }

    static void check(int ranks, int root, long messageBytes, int[] nodeOf) {
        Schedule.checkRooted(ranks, root, messageBytes);
        if (nodeOf.length != ranks) {
            throw new IllegalArgumentException("nodeOf has " + nodeOf.length + " entries (expected: ranks=" + ranks + ")");
        }
    }
}
