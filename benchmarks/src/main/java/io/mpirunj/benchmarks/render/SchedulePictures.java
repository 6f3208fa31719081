package io.mpirunj.benchmarks.render;

import io.mpirunj.collectives.sim.Simulation;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * Pictures of schedules: the entry point for {@code mpirun-j schedule --png}, the papers report
 * and anyone who wants to look at a schedule. Each method returns a {@link Picture}; call
 * {@link Picture#writePng} or {@link Picture#writeSvg}.
 *
 * <pre>{@code
 * CostModel model = ModelSpec.parse("hold=20,end=55");
 * Simulation sim = Simulator.event(MulticastAlgorithms.multicast("opt-tree", 9, 0, 0, model), model);
 * SchedulePictures.tree(sim).writePng(Path.of("opt-tree.png"));
 * SchedulePictures.timing(sim).writeSvg(Path.of("opt-tree-timing.svg"));
 * }</pre>
 */
public final class SchedulePictures {

    private SchedulePictures() {
    }

    /**
     * The delivery tree of a rooted (bcast/multicast) schedule: root at the top, children in send
     * order, edges labelled {@code #order · step s} and {@code start → delivery}.
     *
     * @throws IllegalArgumentException for an all-to-all schedule
     */
    public static Picture tree(Simulation sim) {
        return tree(sim, null);
    }

    /**
     * As {@link #tree(Simulation)}, with an extra label beside each node, e.g. its mesh
     * coordinates: {@code r -> coords.get(r).toString()}. The function may return null or "".
     */
    public static Picture tree(Simulation sim, IntFunction<String> nodeLabel) {
        return new TreePainter(Objects.requireNonNull(sim, "sim"), nodeLabel).picture();
    }

    /**
     * The timing diagram, with the send/receive busy intervals taken from the model the
     * simulation names when that is a cost model spec ({@link ModelSpec}); otherwise only the
     * in-flight intervals are drawn (see {@link #timing(Simulation, CostModel)}).
     */
    public static Picture timing(Simulation sim) {
        return timing(sim, parseOrNull(sim.model()));
    }

    /**
     * The timing diagram: one row per rank; for each message the sender's busy interval
     * (t_hold; LogP: o), the network interval and the receiver's busy interval ending at the
     * delivery; the completion time marked. {@code model} gives the busy intervals; null draws
     * the messages as start-to-delivery arrows only (e.g. for a wormhole-network simulation).
     */
    public static Picture timing(Simulation sim, CostModel model) {
        return new TimingPainter(Objects.requireNonNull(sim, "sim"), model).picture();
    }

    /** A mesh/torus with every message's route coloured by step and contention marked. */
    public static Picture fabric(FabricView view) {
        return new FabricPainter(Objects.requireNonNull(view, "view")).picture();
    }

    private static CostModel parseOrNull(String spec) {
        try {
            return ModelSpec.parse(spec);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
