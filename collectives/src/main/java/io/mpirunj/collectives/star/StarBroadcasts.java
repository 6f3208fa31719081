package io.mpirunj.collectives.star;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.collectives.FabricFallback;
import io.mpirunj.collectives.FabricSpecs;
import io.mpirunj.collectives.ScheduleCollectives;
import io.mpirunj.collectives.baseline.Multicasts;
import io.mpirunj.collectives.runner.CompiledSchedule;
import io.mpirunj.collectives.runner.ScheduleBuffers;
import io.mpirunj.collectives.runner.ScheduleCache;
import io.mpirunj.collectives.runner.ScheduleRequest;
import io.mpirunj.collectives.runner.ScheduleRunner;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.topology.StarGraph;
import io.mpirunj.fabric.topology.Topology;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveOp;
import java.util.List;

/**
 * The star-graph broadcasts by name ({@value StarBcast#NAME}, {@value StarBcast#MATCHED_NAME},
 * {@value AkersStarBcast#NAME}): as placement-aware schedule builders for {@code mpirun-j schedule
 * --fabric star:N}, and as live bcast algorithms ({@code --coll bcast=star} in a job started with
 * {@code --fabric star:N} and n! ranks).
 */
public final class StarBroadcasts {

    /** The names, in table order. */
    public static final List<String> NAMES = List.of(StarBcast.NAME, StarBcast.MATCHED_NAME, AkersStarBcast.NAME);

    private StarBroadcasts() {
    }

    /** One line per algorithm, for the tables. */
    public static String description(String name) {
        return switch (name) {
            case StarBcast.NAME -> "all-port star-graph broadcast through Hamiltonian-path intervals, "
                    + "<= ceil(log_n n!) + 1 steps (paper 004)";
            case StarBcast.MATCHED_NAME -> "star with a matched last I_s step (beyond paper 004; often "
                    + "ceil(log_n n!) steps)";
            case AkersStarBcast.NAME -> "Akers-Harel-Krishnamurthy recursive star-graph broadcast, n - 1 steps";
            default -> throw new IllegalArgumentException("unknown star broadcast '" + name + "' (expected one of: "
                    + String.join(", ", NAMES) + ")");
        };
    }

    /**
     * The bcast schedule of algorithm {@code name} over {@code ranks} ranks, rank r on node
     * {@code nodeOf[r]} of {@code topology}, which must be a star graph with one rank per node.
     */
    public static Schedule build(String name, int ranks, int root, long messageBytes, Topology topology, int[] nodeOf) {
        description(name);
        if (!(topology instanceof StarGraph star)) {
            throw new IllegalArgumentException(name + " needs a star graph fabric, e.g. star:4 (got " + topology + ")");
        }
        if (ranks != star.nodes() || nodeOf.length != ranks) {
            throw new IllegalArgumentException(name + " needs one rank per node of " + star + ": ranks=" + ranks
                    + " (expected: " + star.nodes() + ")");
        }
        Schedule.checkRooted(ranks, root, messageBytes);
        int n = star.degree() + 1;
        int rootNode = nodeOf[root];
        return switch (name) {
            case StarBcast.NAME -> StarBcast.build(n, rootNode, messageBytes, nodeOf, false);
            case StarBcast.MATCHED_NAME -> StarBcast.build(n, rootNode, messageBytes, nodeOf, true);
            default -> AkersStarBcast.build(n, rootNode, messageBytes, nodeOf);
        };
    }

    /** The live algorithms, one per name. */
    public static List<CollectiveAlgorithm> algorithms(ScheduleCache cache) {
        return NAMES.stream().map(name -> live(name, cache)).toList();
    }

    /** The live bcast {@code name}, sharing {@code cache}. */
    public static CollectiveAlgorithm live(String name, ScheduleCache cache) {
        description(name);
        return new Live(name, cache);
    }

    /**
     * A star broadcast run by the {@link ScheduleRunner} when the job's fabric ({@code --fabric
     * star:N}) has exactly one node per rank; otherwise the highest-priority other bcast, with
     * one warning per algorithm and JVM.
     */
    static final class Live implements CollectiveAlgorithm.Bcast {
        private final String name;
        private final ScheduleCache cache;
        private final FabricFallback fallback;
        /** Ranks 0..p-1 in order, the participants of every call (read only, shared by the calls). */
        private volatile int[] identity = new int[0];

        Live(String name, ScheduleCache cache) {
            this.name = name;
            this.cache = cache;
            this.fallback = new FabricFallback(CollectiveOp.BCAST, name, "--fabric star:N with N! ranks");
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String description() {
            return "schedule: " + StarBroadcasts.description(name) + "; needs --fabric star:N and N! ranks";
        }

        @Override
        public int priority() {
            return ScheduleCollectives.PRIORITY;
        }

        @Override
        public java.util.Set<io.mpirunj.runtime.spi.AlgorithmTrait> traits() {
            return io.mpirunj.collectives.catalogue.AlgorithmCatalogue.lookup(op(), name).traits();
        }

        @Override
        public Request bcast(CollChannel ch, Buffer buf, int root, boolean blocking) {
            int p = ch.size();
            if (p == 1) {
                return blocking ? null : Multicasts.done(ch, buf, ScheduleCollectives.BCAST_TAG);
            }
            FabricSpecs.Placed placed = FabricSpecs.place(ch.config(), p, (t, fabric) -> {
                if (!(t instanceof StarGraph)) {
                    return "--fabric " + fabric + " is not a star graph";
                }
                return t.nodes() == p ? null : "--fabric " + fabric + " has " + t.nodes() + " nodes for " + p + " ranks";
            });
            String why = placed.why();
            if (why != null) {
                return ((CollectiveAlgorithm.Bcast) fallback.instead(ch, why)).bcast(ch, buf, root, blocking);
            }
            int[] nodeOf = placed.nodeOf();
            Topology star = placed.topology();
            String key = ch.config().fabricSpec() + " " + (ch.config().placementSpec() == null ? "identity" : ch.config().placementSpec());
            CompiledSchedule compiled = cache.get(new ScheduleCache.Key(Collective.BCAST, name, p, root,
                    buf.byteLength(), key), () -> build(name, p, root, buf.byteLength(), star, nodeOf));
            // the schedule is built for this root over the ranks as they are (rank r is schedule rank r)
            return ScheduleRequest.runOrStart(blocking, compiled, ch, ScheduleBuffers.of(buf), identity(p),
                    ch.rank(), ScheduleCollectives.BCAST_TAG);
        }

        private int[] identity(int p) {
            int[] ranks = identity;
            if (ranks.length != p) {
                ranks = Multicasts.rotated(p, 0);
                identity = ranks;
            }
            return ranks;
        }

        @Override
        public String toString() {
            return "bcast=" + name;
        }
    }
}
