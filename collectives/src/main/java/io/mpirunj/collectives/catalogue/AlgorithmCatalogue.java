package io.mpirunj.collectives.catalogue;

import static io.mpirunj.runtime.spi.AlgorithmTrait.MESH_FABRIC;
import static io.mpirunj.runtime.spi.AlgorithmTrait.NEEDS_MODEL;
import static io.mpirunj.runtime.spi.AlgorithmTrait.PAIR_MODEL;
import static io.mpirunj.runtime.spi.AlgorithmTrait.PLACEMENT_AWARE;
import static io.mpirunj.runtime.spi.AlgorithmTrait.POWER_OF_TWO;
import static io.mpirunj.runtime.spi.AlgorithmTrait.SCHEDULE;
import static io.mpirunj.runtime.spi.AlgorithmTrait.SEGMENTED;
import static io.mpirunj.runtime.spi.AlgorithmTrait.STAR_FABRIC;
import static io.mpirunj.runtime.spi.AlgorithmTrait.TORUS_FABRIC;

import io.mpirunj.Op;
import io.mpirunj.collectives.ScheduleCollectives;
import io.mpirunj.collectives.baseline.BinomialBcast;
import io.mpirunj.collectives.baseline.BinomialGather;
import io.mpirunj.collectives.baseline.BinomialP2pMulticast;
import io.mpirunj.collectives.baseline.BinomialReduce;
import io.mpirunj.collectives.baseline.BinomialScatter;
import io.mpirunj.collectives.baseline.BruckAlltoall;
import io.mpirunj.collectives.baseline.DisseminationBarrier;
import io.mpirunj.collectives.baseline.LinearBarrier;
import io.mpirunj.collectives.baseline.LinearAlltoall;
import io.mpirunj.collectives.baseline.LinearAlltoallv;
import io.mpirunj.collectives.baseline.LinearBcast;
import io.mpirunj.collectives.baseline.LinearGather;
import io.mpirunj.collectives.baseline.LinearGatherv;
import io.mpirunj.collectives.baseline.LinearP2pMulticast;
import io.mpirunj.collectives.baseline.LinearReduceBcastAllreduce;
import io.mpirunj.collectives.baseline.LinearScatter;
import io.mpirunj.collectives.baseline.LinearScatterv;
import io.mpirunj.collectives.baseline.PairwiseAlltoall;
import io.mpirunj.collectives.baseline.PairwiseAlltoallv;
import io.mpirunj.collectives.baseline.PrefixReduction;
import io.mpirunj.collectives.baseline.RabenseifnerAllreduce;
import io.mpirunj.collectives.baseline.RecursiveDoublingAllreduce;
import io.mpirunj.collectives.baseline.ReduceBcastAllreduce;
import io.mpirunj.collectives.baseline.RingAllgather;
import io.mpirunj.collectives.baseline.RingAllgatherv;
import io.mpirunj.collectives.baseline.RingReduceScatter;
import io.mpirunj.collectives.baseline.SimulatedBaseline;
import io.mpirunj.collectives.builders.ReductionBuilders;
import io.mpirunj.collectives.file.FileSchedules;
import io.mpirunj.collectives.mesh.LiveMeshMulticasts;
import io.mpirunj.collectives.mesh.OptMeshMulticast;
import io.mpirunj.collectives.mesh.UMeshMulticast;
import io.mpirunj.collectives.multicast.BinarySplitMulticast;
import io.mpirunj.collectives.multicast.BinomialMulticast;
import io.mpirunj.collectives.multicast.BinomialSegmentedMulticast;
import io.mpirunj.collectives.multicast.ChainMulticast;
import io.mpirunj.collectives.multicast.ChainPipelinedMulticast;
import io.mpirunj.collectives.multicast.EcefMulticast;
import io.mpirunj.collectives.multicast.FefMulticast;
import io.mpirunj.collectives.multicast.FibonacciMulticast;
import io.mpirunj.collectives.multicast.MultiPortOptTreeMulticast;
import io.mpirunj.collectives.multicast.MulticastAlgorithms;
import io.mpirunj.collectives.multicast.MulticastBuilder;
import io.mpirunj.collectives.multicast.OptTreeMulticast;
import io.mpirunj.collectives.multicast.SequentialMulticast;
import io.mpirunj.collectives.multicast.TtccMulticast;
import io.mpirunj.collectives.runner.ModelProvider;
import io.mpirunj.collectives.runner.ScheduleCache;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.star.StarBroadcasts;
import io.mpirunj.collectives.torus.DiagonalAlltoall;
import io.mpirunj.collectives.torus.DirectAlltoall;
import io.mpirunj.collectives.torus.SemAlltoall;
import io.mpirunj.collectives.torus.TorusAlltoalls;
import io.mpirunj.collectives.torus.TorusCollectives;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.topology.Mesh;
import io.mpirunj.fabric.topology.StarGraph;
import io.mpirunj.fabric.topology.Topology;
import io.mpirunj.runtime.spi.AlgorithmTrait;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveOp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The one catalogue of collective algorithms: every entry names its operation, its name, what it
 * needs or does ({@link AlgorithmTrait}), how it runs live (through {@link java.util.ServiceLoader}
 * via {@link CatalogueProvider}) and how its schedule is built for the simulator. The run command's
 * selection, {@code --list-algorithms}, {@code schedule}, {@code simulate}, {@code bench --coll op=all},
 * the papers report and {@code auto} all read it.
 *
 * <p>Adding an algorithm is one line below: {@code baseline(new MyAllreduce())} for a live algorithm (simulated
 * too when it is a {@link SimulatedBaseline}, which gives the schedule its calls run; else
 * {@code baseline(new MyAllreduce(), s -> MyBuilders.x(s.ranks(), s.bytes()))}, and without a builder it runs but
 * cannot be simulated), or {@code tree(...)} for a multicast tree builder (which becomes a bcast and a multicast).
 */
public final class AlgorithmCatalogue {

    /** The arguments of a simulated build: participants, root index, size, model and, on a fabric, placement. */
    public record Shape(int ranks, int root, long bytes, CostModel model, Topology topology, int[] nodeOf) {
        /** Without a fabric. */
        public static Shape of(int ranks, int root, long bytes, CostModel model) {
            return new Shape(ranks, root, bytes, model, null, null);
        }
    }

    /**
     * Builds an entry's schedule for the simulator (bytes: the buffer of rooted ops and reductions, the
     * per-pair block of all-to-all, gather, scatter and allgather). Pure: no clocks, sockets or randomness.
     */
    @FunctionalInterface
    public interface Builder {
        Schedule build(Shape shape);
    }

    /** What live algorithms share: the model they plan with and the JVM-wide schedule cache. */
    public record Services(ModelProvider models, ScheduleCache cache) {
    }

    /**
     * One algorithm.
     *
     * @param live    makes the live algorithm, or null for one that is only simulated (for now)
     * @param builder builds its schedule for the simulator, or null for one that cannot be simulated
     */
    public record Entry(CollectiveOp op, String name, String description, Set<AlgorithmTrait> traits,
            Function<Services, CollectiveAlgorithm> live, Builder builder) {

        public boolean isLive() {
            return live != null;
        }

        public boolean simulable() {
            return builder != null;
        }

        /** True when it can run on {@code topology} (null: no fabric) with {@code ranks} participants. */
        public boolean fits(Topology topology, int ranks) {
            if (traits.contains(STAR_FABRIC)) {
                return topology instanceof StarGraph && ranks == topology.nodes();
            }
            if (traits.contains(MESH_FABRIC) || traits.contains(TORUS_FABRIC)) {
                return topology instanceof Mesh;
            }
            return true;
        }

        /** What it needs to run, for error messages ("" when nothing). */
        public String requirement() {
            FabricNeed need = fabricNeed();
            return need == null ? "" : need.requirement();
        }

        /** An example of the options {@link #requirement()} asks for ("" when nothing). */
        public String example() {
            FabricNeed need = fabricNeed();
            return need == null ? "" : need.example();
        }

        private FabricNeed fabricNeed() {
            for (FabricNeed need : FABRIC_NEEDS) {
                if (traits.contains(need.trait())) {
                    return need;
                }
            }
            return null;
        }

        /** Its schedule for {@code shape}, labelled with this entry's operation. */
        public Schedule build(Shape shape) {
            if (builder == null) {
                throw new IllegalArgumentException(op.cliName() + " algorithm '" + name + "' has no schedule builder "
                        + "(it runs live only)");
            }
            return builder.build(shape);
        }
    }

    /** A fabric an algorithm needs: its trait, what to tell the user, and an example of the options. */
    private record FabricNeed(AlgorithmTrait trait, String requirement, String example) {
    }

    /** The fabric traits, most specific first (a torus is also a mesh). */
    private static final List<FabricNeed> FABRIC_NEEDS = List.of(
            new FabricNeed(STAR_FABRIC, "a star graph fabric with one rank per node", "--fabric star:4"),
            new FabricNeed(TORUS_FABRIC, "a square torus fabric with one rank per node", "--fabric torus:8x8"),
            new FabricNeed(MESH_FABRIC, "a mesh, torus or hypercube fabric",
                    "--fabric mesh:6x6 --placement 3/2,1/5,..."));

    private static final List<Entry> ENTRIES = new ArrayList<>();
    private static final List<MulticastAlgorithms.Entry> TREES = new ArrayList<>();
    static {
        // ---- point-to-point baselines (Open MPI coll/base, MPICH), run as schedules; the defaults by priority ----
        baseline(new DisseminationBarrier());
        baseline(new LinearBarrier());
        baseline(new BinomialBcast(), s -> bcast(BinomialMulticast.build(s.ranks(), s.root(), s.bytes(), null)));
        baseline(new LinearBcast(), s -> bcast(SequentialMulticast.build(s.ranks(), s.root(), s.bytes(), null)));
        baseline(new BinomialP2pMulticast(), s -> BinomialMulticast.build(s.ranks(), s.root(), s.bytes(), null));
        baseline(new LinearP2pMulticast(), s -> SequentialMulticast.build(s.ranks(), s.root(), s.bytes(), null));
        baseline(new PairwiseAlltoall());
        baseline(new LinearAlltoall());
        baseline(new BruckAlltoall());
        baseline(new PairwiseAlltoallv());
        baseline(new LinearAlltoallv());
        baseline(new BinomialGather());
        baseline(new LinearGather());
        baseline(new LinearGatherv());
        baseline(new BinomialScatter());
        baseline(new LinearScatter());
        baseline(new LinearScatterv());
        baseline(new RingAllgather());
        baseline(new RingAllgatherv());
        baseline(new BinomialReduce());
        baseline(new RecursiveDoublingAllreduce(), POWER_OF_TWO);
        baseline(new ReduceBcastAllreduce());
        baseline(new LinearReduceBcastAllreduce());
        baseline(new RabenseifnerAllreduce(), POWER_OF_TWO);
        baseline(new RingReduceScatter(CollectiveOp.REDUCE_SCATTER), // size: the whole send buffer, cut evenly
                s -> ReductionBuilders.ringReduceScatter(s.ranks(), evenBlocks(s.ranks(), s.bytes()), Op.SUM));
        baseline(new RingReduceScatter(CollectiveOp.REDUCE_SCATTER_BLOCK), // size: one rank's block
                s -> ReductionBuilders.ringReduceScatter(s.ranks(), evenBlocks(s.ranks(), s.bytes() * s.ranks()),
                        Op.SUM));
        baseline(PrefixReduction.recursiveDoubling(CollectiveOp.SCAN), POWER_OF_TWO);
        baseline(PrefixReduction.linear(CollectiveOp.SCAN));
        baseline(PrefixReduction.recursiveDoubling(CollectiveOp.EXSCAN), POWER_OF_TWO);
        baseline(PrefixReduction.linear(CollectiveOp.EXSCAN));

        // ---- multicast trees (papers 000, 002, 003): each a bcast and a multicast of the same name ----
        tree(SequentialMulticast.NAME, "root sends to every rank itself (separate addressing)",
                SequentialMulticast::build);
        tree(ChainMulticast.NAME, "each rank forwards to the next", ChainMulticast::build);
        tree(BinomialMulticast.NAME, "binomial tree, largest subtree first; ceil(log2 k) rounds",
                BinomialMulticast::build);
        tree(BinarySplitMulticast.NAME, "even-halves split (paper 002 baseline)", BinarySplitMulticast::build);
        tree(OptTreeMulticast.NAME, "optimal one-port tree for the model's t_hold/t_end (paper 000)",
                OptTreeMulticast::build, NEEDS_MODEL);
        tree(MultiPortOptTreeMulticast.NAME, "OPT-tree generalised to the model's ports (p sends in flight)",
                MultiPortOptTreeMulticast::build, NEEDS_MODEL);
        tree(FibonacciMulticast.NAME, "Fibonacci split, tuned for LogP (paper 002)", FibonacciMulticast::build,
                NEEDS_MODEL);
        segmentedTree(ChainPipelinedMulticast.NAME, "chain streaming model-chosen segments (large messages)",
                ChainPipelinedMulticast::build, ChainPipelinedMulticast::build);
        segmentedTree(BinomialSegmentedMulticast.NAME, "binomial tree streaming model-chosen segments (large messages)",
                BinomialSegmentedMulticast::build, BinomialSegmentedMulticast::build);
        // heterogeneous (per-pair) networks, paper 003; on a uniform model they plan on the unit matrix
        tree(FefMulticast.NAME, "fastest edge first on a per-pair model (paper 003 baseline)", FefMulticast::build,
                PAIR_MODEL);
        tree(EcefMulticast.NAME, "earliest completing edge first on a per-pair model (paper 003)",
                EcefMulticast::build, PAIR_MODEL);
        tree(TtccMulticast.NAME, "two edge-disjoint ECEF trees, first copy wins (paper 003)", TtccMulticast::build,
                PAIR_MODEL);

        // ---- placement-aware, on a fabric (papers 000, 004, 001) ----
        placed(OptMeshMulticast.NAME, "OPT-tree laid onto the dimension-ordered chain: contention-free on a mesh "
                + "(paper 000)", s -> OptMeshMulticast.build(s.ranks(), s.root(), s.bytes(), s.model(),
                mesh(s.topology(), OptMeshMulticast.NAME), s.nodeOf()), MESH_FABRIC, NEEDS_MODEL);
        placed(UMeshMulticast.NAME, "binomial recursive halving of the dimension-ordered chain (McKinley et al. 1994)",
                s -> UMeshMulticast.build(s.ranks(), s.root(), s.bytes(), s.model(),
                        mesh(s.topology(), UMeshMulticast.NAME), s.nodeOf()), MESH_FABRIC);
        for (String name : StarBroadcasts.NAMES) {
            star(name);
        }
        torus(SemAlltoall.NAME, true);
        torus(SemAlltoall.NAME_CELL4, false);
        torus(DiagonalAlltoall.NAME, false);
        torus(DirectAlltoall.NAME, false);

        // ---- schedules read from a file: --coll bcast=file:FILE.json ----
        for (CollectiveAlgorithm file : FileSchedules.algorithms()) {
            baseline(file);
        }
    }

    private AlgorithmCatalogue() {
    }

    /**
     * A live algorithm, described by itself; simulated when it gives its own schedule ({@link SimulatedBaseline}),
     * else not (the v-variants have no size all ranks agree on).
     */
    private static void baseline(CollectiveAlgorithm a, AlgorithmTrait... traits) {
        baseline(a, a instanceof SimulatedBaseline b ? s -> b.schedule(s.ranks(), s.root(), s.bytes()) : null, traits);
    }

    /** A live algorithm, described by itself, and {@code builder}, the schedule it runs, for the simulator. */

    private static void baseline(CollectiveAlgorithm a, Builder builder, AlgorithmTrait... traits) {
        EnumSet<AlgorithmTrait> t = traitsOf(traits);
        if (builder != null) {
            t.add(SCHEDULE);
        }
        add(new Entry(a.op(), a.name(), a.description(), t, services -> a, builder));
    }

    /** A multicast tree as two entries, a bcast over the communicator and a multicast over a group. */
    private static void tree(String name, String description, MulticastBuilder builder, AlgorithmTrait... traits) {
        addTree(new MulticastAlgorithms.Entry(name, description, false, builder, null), traits);
    }

    private static void segmentedTree(String name, String description, MulticastBuilder builder,
            MulticastAlgorithms.SegmentsBuilder segments) {
        addTree(new MulticastAlgorithms.Entry(name, description, true, builder, segments), SEGMENTED, NEEDS_MODEL);
    }

    private static void addTree(MulticastAlgorithms.Entry tree, AlgorithmTrait... traits) {
        TREES.add(tree);
        EnumSet<AlgorithmTrait> t = traitsOf(traits);
        t.add(SCHEDULE);
        Set<AlgorithmTrait> fixed = Set.copyOf(t);
        add(new Entry(CollectiveOp.BCAST, tree.name(), tree.description(), fixed,
                s -> new ScheduleCollectives.ScheduleTree(CollectiveOp.BCAST, tree, fixed, s.models(), s.cache()),
                s -> tree.builder().build(s.ranks(), s.root(), s.bytes(), s.model()).withCollective(Collective.BCAST)));
        add(new Entry(CollectiveOp.MULTICAST, tree.name(), tree.description(), fixed,
                s -> new ScheduleCollectives.ScheduleTree(CollectiveOp.MULTICAST, tree, fixed, s.models(), s.cache()),
                s -> tree.builder().build(s.ranks(), s.root(), s.bytes(), s.model())));
    }

    /** A placement-aware multicast tree, live on the job's --fabric ({@link LiveMeshMulticasts}), as a bcast and a multicast. */
    private static void placed(String name, String description, Builder builder, AlgorithmTrait... traits) {
        EnumSet<AlgorithmTrait> t = traitsOf(traits);
        t.add(SCHEDULE);
        t.add(PLACEMENT_AWARE);
        Set<AlgorithmTrait> fixed = Set.copyOf(t);
        add(new Entry(CollectiveOp.BCAST, name, description, fixed, s -> liveMesh(CollectiveOp.BCAST, name, s),
                s -> builder.build(s).withCollective(Collective.BCAST)));
        add(new Entry(CollectiveOp.MULTICAST, name, description, fixed, s -> liveMesh(CollectiveOp.MULTICAST, name, s),
                builder));
    }

    private static CollectiveAlgorithm liveMesh(CollectiveOp op, String name, Services services) {
        return LiveMeshMulticasts.algorithms(services.models(), services.cache()).stream()
                .filter(a -> a.op() == op && a.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no live " + op.cliName() + " " + name));
    }

    /** A bcast label on a tree's schedule. */
    private static Schedule bcast(Schedule multicast) {
        return multicast.withCollective(Collective.BCAST);
    }

    /** {@code bytes} cut into {@code p} blocks, the first {@code bytes mod p} one byte longer. */
    private static long[] evenBlocks(int p, long bytes) {
        long[] blocks = new long[p];
        for (int i = 0; i < p; i++) {
            blocks[i] = bytes / p + (i < bytes % p ? 1 : 0);
        }
        return blocks;
    }

    /** A star-graph bcast: live and simulated as a bcast, simulated as a multicast over every node. */
    private static void star(String name) {
        Set<AlgorithmTrait> t = Set.of(SCHEDULE, PLACEMENT_AWARE, STAR_FABRIC);
        Builder b = s -> StarBroadcasts.build(name, s.ranks(), s.root(), s.bytes(), s.topology(), s.nodeOf());
        add(new Entry(CollectiveOp.BCAST, name, StarBroadcasts.description(name), t,
                s -> StarBroadcasts.live(name, s.cache()), b));
        add(new Entry(CollectiveOp.MULTICAST, name, StarBroadcasts.description(name), t, null, b));
    }

    /** A torus all-to-all (paper 001): schedule rank = node id; {@code live} ones run with --fabric torus:NxN. */
    private static void torus(String name, boolean live) {
        Set<AlgorithmTrait> t = Set.of(SCHEDULE, PLACEMENT_AWARE, TORUS_FABRIC);
        Builder b = s -> {
            int n = TorusAlltoalls.side(s.ranks());
            if (n < 0) {
                throw new IllegalArgumentException(name + " needs N*N ranks on an NxN torus (got " + s.ranks() + ")");
            }
            return TorusAlltoalls.build(name, n, s.bytes());
        };
        add(new Entry(CollectiveOp.ALLTOALL, name, TorusAlltoalls.entry(name).description(), t,
                live ? s -> TorusCollectives.alltoall(name) : null, b));
    }

    private static EnumSet<AlgorithmTrait> traitsOf(AlgorithmTrait... traits) {
        EnumSet<AlgorithmTrait> t = EnumSet.noneOf(AlgorithmTrait.class);
        t.addAll(Arrays.asList(traits));
        return t;
    }

    private static void add(Entry e) {
        for (Entry old : ENTRIES) {
            if (old.op() == e.op() && old.name().equals(e.name())) {
                throw new IllegalStateException("two " + e.op().cliName() + " algorithms named '" + e.name() + "'");
            }
        }
        ENTRIES.add(e);
    }

    private static Mesh mesh(Topology topology, String algorithm) {
        if (topology instanceof Mesh mesh) {
            return mesh;
        }
        throw new IllegalArgumentException(algorithm + " needs a mesh, torus or hypercube (got " + topology + ")");
    }

    /** Every entry, in catalogue order. */
    public static List<Entry> all() {
        return List.copyOf(ENTRIES);
    }

    /** The entries of {@code op}, in catalogue order. */
    public static List<Entry> of(CollectiveOp op) {
        return ENTRIES.stream().filter(e -> e.op() == op).toList();
    }

    /**
     * The traits of {@code op}'s algorithm {@code name} if it runs only on a fabric the job names, else null (also for a
     * name the catalogue does not have): what {@code --coll} and {@code bench} refuse on a job without a fabric.
     */
    public static java.util.Set<io.mpirunj.runtime.spi.AlgorithmTrait> fabricOnly(CollectiveOp op, String name) {
        Entry e = find(op, name);
        return e != null && io.mpirunj.runtime.spi.AlgorithmTrait.needsFabric(e.traits()) ? e.traits() : null;
    }

    /** The entry of {@code op} called {@code name}, or null. */
    public static Entry find(CollectiveOp op, String name) {
        for (Entry e : ENTRIES) {
            if (e.op() == op && e.name().equals(name)) {
                return e;
            }
        }
        return null;
    }

    /** The entry of {@code op} called {@code name}; the error lists the valid names. */
    public static Entry lookup(CollectiveOp op, String name) {
        Entry e = name == null ? null : find(op, name);
        if (e == null) {
            throw new IllegalArgumentException("unknown " + op.cliName() + " algorithm '" + name
                    + "' (expected one of: " + String.join(", ", names(op)) + ")");
        }
        return e;
    }

    public static List<String> names(CollectiveOp op) {
        return of(op).stream().map(Entry::name).toList();
    }

    /** The multicast trees (the placement-oblivious tree builders), in catalogue order. */
    public static List<MulticastAlgorithms.Entry> trees() {
        return List.copyOf(TREES);
    }


    /** Every live algorithm, made with {@code services}. */
    public static List<CollectiveAlgorithm> liveAlgorithms(Services services) {
        List<CollectiveAlgorithm> out = new ArrayList<>();
        for (Entry e : ENTRIES) {
            if (e.isLive()) {
                out.add(e.live().apply(services));
            }
        }
        return out;
    }

    /** Entries that can be simulated on {@code topology} (null: none) with {@code ranks} participants. */
    public static List<Entry> simulable(CollectiveOp op, Topology topology, int ranks) {
        return of(op).stream().filter(e -> e.simulable() && (topology != null
                ? e.fits(topology, ranks) : !AlgorithmTrait.needsFabric(e.traits()))).toList();
    }
}
