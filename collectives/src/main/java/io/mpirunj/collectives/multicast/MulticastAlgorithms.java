package io.mpirunj.collectives.multicast;

import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one table of multicast/bcast algorithms: name -> builder + one-line description. The CLI
 * ({@code --coll bcast=opt-tree}), the selector and the tests all go through it.
 */
public final class MulticastAlgorithms {

    /** A registered algorithm. {@code segmented} ones cut the buffer and pay off for large messages. */
    public record Entry(String name, String description, boolean segmented, MulticastBuilder builder) {
    }

    private static final Map<String, Entry> TABLE = new LinkedHashMap<>();

    static {
        add(SequentialMulticast.NAME, "root sends to every rank itself (separate addressing)", false,
                SequentialMulticast::build);
        add(ChainMulticast.NAME, "each rank forwards to the next", false, ChainMulticast::build);
        add(BinomialMulticast.NAME, "binomial tree, largest subtree first; ceil(log2 k) rounds", false,
                BinomialMulticast::build);
        add(BinarySplitMulticast.NAME, "even-halves split (paper 002 baseline)", false, BinarySplitMulticast::build);
        add(OptTreeMulticast.NAME, "optimal one-port tree for the model's t_hold/t_end (paper 000)", false,
                OptTreeMulticast::build);
        add(MultiPortOptTreeMulticast.NAME, "OPT-tree generalised to the model's ports (p sends in flight)", false,
                MultiPortOptTreeMulticast::build);
        add(FibonacciMulticast.NAME, "Fibonacci split, tuned for LogP (paper 002)", false, FibonacciMulticast::build);
        add(ChainPipelinedMulticast.NAME, "chain streaming model-chosen segments (large messages)", true,
                ChainPipelinedMulticast::build);
        add(BinomialSegmentedMulticast.NAME, "binomial tree streaming model-chosen segments (large messages)", true,
                BinomialSegmentedMulticast::build);
        // Heterogeneous (per-pair) networks, paper 003; on a uniform model they plan on the unit matrix.
        add(FefMulticast.NAME, "fastest edge first on a per-pair model (paper 003 baseline)", false, FefMulticast::build);
        add(EcefMulticast.NAME, "earliest completing edge first on a per-pair model (paper 003)", false,
                EcefMulticast::build);
        add(TtccMulticast.NAME, "two edge-disjoint ECEF trees, first copy wins (paper 003)", false,
                TtccMulticast::build);
    }

    private MulticastAlgorithms() {
    }

    private static void add(String name, String description, boolean segmented, MulticastBuilder builder) {
        TABLE.put(name, new Entry(name, description, segmented, builder));
    }

    /** All entries, in table order. */
    public static List<Entry> all() {
        return List.copyOf(TABLE.values());
    }

    public static List<String> names() {
        return List.copyOf(TABLE.keySet());
    }

    /** The entry named {@code name}; an unknown name fails listing the valid ones. */
    public static Entry lookup(String name) {
        Entry entry = name == null ? null : TABLE.get(name);
        if (entry == null) {
            throw new IllegalArgumentException("unknown multicast algorithm '" + name + "' (expected one of: "
                    + String.join(", ", TABLE.keySet()) + ")");
        }
        return entry;
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
        for (String n : TABLE.keySet()) {
            width = Math.max(width, n.length());
        }
        List<String> lines = new ArrayList<>();
        for (Entry e : TABLE.values()) {
            lines.add(String.format("%-" + width + "s  %s", e.name(), e.description()));
        }
        return String.join("\n", lines);
    }
}
