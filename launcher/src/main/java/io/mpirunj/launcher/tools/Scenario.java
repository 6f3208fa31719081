package io.mpirunj.launcher.tools;

import io.mpirunj.collectives.catalogue.AlgorithmCatalogue;
import io.mpirunj.collectives.multicast.MulticastAlgorithms;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.sim.Evaluation;
import io.mpirunj.collectives.sim.Simulation;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.Numbers;
import io.mpirunj.fabric.topology.Topology;
import io.mpirunj.fabric.wormhole.WormholeNetwork;
import io.mpirunj.runtime.spi.AlgorithmTrait;
import io.mpirunj.runtime.spi.CollectiveOp;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A checked {@link ScenarioOptions}: builds an algorithm's schedule and evaluates it. Schedule
 * rank i is group member i; on a fabric it runs on node {@code nodeOf[i]}.
 *
 * @param model     what the builders plan with, and the timing without a fabric or in rounds
 * @param fabric    the {@code --fabric} spec, or null
 * @param placement the {@code --placement} spec ({@code identity} by default), or null without a fabric
 * @param topology  null without a fabric (as {@code nodeOf} and {@code network})
 */
record Scenario(Collective op, int ranks, int root, long bytes, CostModel model, Evaluation evaluation,
                Topology topology, String fabric, String placement, int[] nodeOf, WormholeNetwork network) {

    boolean onFabric() {
        return topology != null;
    }

    /** True when the evaluation routes messages (paths, waits, contention). */
    boolean routed() {
        return onFabric() && evaluation == Evaluation.EVENT;
    }

    /** Every algorithm this scenario can run: the catalogue's placement-aware ones the fabric fits, then the trees. */
    List<String> algorithms() {
        List<String> names = new ArrayList<>();
        if (onFabric()) {
            for (AlgorithmCatalogue.Entry e : AlgorithmCatalogue.of(CollectiveOp.MULTICAST)) {
                if (e.simulable() && AlgorithmTrait.needsFabric(e.traits()) && e.fits(topology, ranks)) {
                    names.add(e.name());
                }
            }
        }
        names.addAll(treeNames());
        return names;
    }

    /**
     * The catalogue's placement-oblivious multicast trees (the p2p baselines run the same schedules as
     * {@code sequential} and {@code binomial}, so they are not listed twice).
     */
    static List<String> treeNames() {
        return AlgorithmCatalogue.trees().stream().map(MulticastAlgorithms.Entry::name).toList();
    }

    /** The placement-aware multicast schedules of the catalogue. */
    static List<String> placedNames() {
        return AlgorithmCatalogue.of(CollectiveOp.MULTICAST).stream()
                .filter(e -> e.simulable() && AlgorithmTrait.needsFabric(e.traits()))
                .map(AlgorithmCatalogue.Entry::name).toList();
    }

    /** Checks that {@code name} is an algorithm this scenario can run; one-line error otherwise. */
    String checkAlgorithm(String name) throws BadInput {
        String n = name == null ? "" : name.trim();
        AlgorithmCatalogue.Entry e = AlgorithmCatalogue.find(CollectiveOp.MULTICAST, n);
        if (e != null && treeNames().contains(n)) {
            return n;
        }
        if (e != null && e.simulable()) {
            if (!AlgorithmTrait.needsFabric(e.traits())) { // the p2p baselines: one of the trees' schedules, run live
                throw new BadInput("--algo " + n + " (" + e.description() + ") runs live the schedule of one of the "
                        + "trees; simulate that tree by its name (one of: " + String.join(", ", treeNames()) + ")");
            }
            if (!onFabric()) {
                throw new BadInput("--algo " + n + " needs --fabric (" + e.requirement() + ", e.g. " + e.example() + ")");
            }
            if (!e.fits(topology, topology.nodes())) { // the rank count is the builder's to check
                throw new BadInput("--algo " + n + " needs " + e.requirement() + " (got --fabric " + fabric + ")");
            }
            return n;
        }
        throw new BadInput("--algo " + name + ": unknown algorithm (expected one of: "
                + String.join(", ", treeNames()) + "; with a --fabric also: "
                + String.join(", ", placedNames()) + ")");
    }

    /** The schedule of a checked algorithm name; a builder's refusal is an {@link IllegalArgumentException}. */
    Schedule build(String algorithm) {
        Schedule s = AlgorithmCatalogue.lookup(CollectiveOp.MULTICAST, algorithm)
                .build(new AlgorithmCatalogue.Shape(ranks, root, bytes, model, topology, nodeOf));
        return s.collective() == op ? s : s.withCollective(op);
    }

    Simulation simulate(Schedule schedule) {
        if (evaluation == Evaluation.ROUNDS) {
            return Simulator.rounds(schedule, model);
        }
        return onFabric() ? Simulator.event(schedule, network, nodeOf) : Simulator.event(schedule, model);
    }

    /** The cost model behind the simulation's timing, or null when the fabric is flit-level. */
    CostModel timingModel() {
        if (evaluation == Evaluation.ROUNDS || !onFabric()) {
            return model;
        }
        return network.costModel();
    }

    /** "evaluation: ..." text saying how the times were obtained. */
    String evaluationText() {
        if (evaluation == Evaluation.ROUNDS) {
            return "rounds (the papers' step counting: each round costs the longest t_end of its messages, "
                    + "model " + model + (onFabric() ? "; fabric routes not evaluated" : "") + ")";
        }
        if (onFabric() && network.flitLevel()) {
            return "event, flit-level wormhole fabric " + network.describe() + " (blocked headers wait; builders "
                    + "planned with " + model + ")";
        }
        if (onFabric()) {
            return "event, fabric " + network.describe() + " in cost-model mode (the model's timing; channel "
                    + "overlaps reported as contention)";
        }
        return "event (virtual time: a node's sends t_hold apart, delivered t_end after the send starts), model "
                + model;
    }

    String evaluationName() {
        return evaluation.name().toLowerCase(Locale.ROOT);
    }

    /**
     * A time for the tables: rounded to 6 decimals, so the simulator's float noise
     * (280.82000000000005) does not show; the JSON keeps the exact values.
     */
    static String time(double t) {
        return Numbers.format(java.math.BigDecimal.valueOf(t).setScale(6, java.math.RoundingMode.HALF_EVEN)
                .doubleValue());
    }

    /** The node address of schedule rank {@code r} on the fabric ("" without one). */
    String address(int r) {
        return onFabric() ? topology.label(nodeOf[r]) : "";
    }

    String describe() {
        return op.label() + " over " + ranks + " rank" + (ranks == 1 ? "" : "s") + (op.rooted() ? ", root " + root : "")
                + ", " + bytes
                + " byte" + (bytes == 1 ? "" : "s") + (onFabric() ? ", on " + fabric + ", placement "
                + placementText() : "");
    }

    /** The placement spec; for random:SEED also the first addresses it drew. */
    private String placementText() {
        if (!placement.startsWith("random:")) {
            return placement;
        }
        StringBuilder b = new StringBuilder(placement).append(" (");
        int shown = Math.min(ranks, 8);
        for (int r = 0; r < shown; r++) {
            b.append(r == 0 ? "" : ",").append(topology.label(nodeOf[r]));
        }
        return b.append(ranks > shown ? ",...)" : ")").toString();
    }
}
