package io.mpirunj.collectives.multicast;

import io.mpirunj.collectives.catalogue.AlgorithmCatalogue;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;
import java.util.ArrayList;
import java.util.List;

/**
 * The placement-oblivious multicast trees of the {@link AlgorithmCatalogue}, by name: a view for the
 * builders' callers (tests, papers, benchmarks). The entries themselves are declared in the catalogue.
 */
public final class MulticastAlgorithms {

    /**
     * A tree builder. {@code segmented} ones cut the buffer and pay off for large messages; their
     * {@code segments} builder takes a segment count instead of planning one from the model.
     */
    public record Entry(String name, String description, boolean segmented, MulticastBuilder builder,
            SegmentsBuilder segments) {
    }

    /** A segmented tree with a given segment count (a rules file's {@code segmentBytes}). */
    @FunctionalInterface
    public interface SegmentsBuilder {
        Schedule build(int ranks, int root, long messageBytes, int segments);
    }

    private MulticastAlgorithms() {
    }

    /** All entries, in catalogue order. */
    public static List<Entry> all() {
        return AlgorithmCatalogue.trees();
    }

    public static List<String> names() {
        return all().stream().map(Entry::name).toList();
    }

    /** The entry named {@code name}; an unknown name fails listing the valid ones. */
    public static Entry lookup(String name) {
        for (Entry e : all()) {
            if (e.name().equals(name)) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown multicast algorithm '" + name + "' (expected one of: "
                + String.join(", ", names()) + ")");
    }

    /** A multicast over {@code ranks} group members, rooted at index {@code root}. */
    public static Schedule multicast(String name, int ranks, int root, long messageBytes, CostModel model) {
        return lookup(name).builder().build(ranks, root, messageBytes, model);
    }

    /** A bcast: the same schedule over all ranks of the communicator, labelled bcast. */
    public static Schedule bcast(String name, int ranks, int root, long messageBytes, CostModel model) {
        return multicast(name, ranks, root, messageBytes, model).withCollective(Collective.BCAST);
    }

    /** "name  description" lines, for {@code --list-algorithms}. */
    public static String help() {
        int width = 0;
        for (String n : names()) {
            width = Math.max(width, n.length());
        }
        List<String> lines = new ArrayList<>();
        for (Entry e : all()) {
            lines.add(String.format("%-" + width + "s  %s", e.name(), e.description()));
        }
        return String.join("\n", lines);
    }
}
