package io.mpirunj.collectives.star;

import io.mpirunj.Buffer;
import io.mpirunj.collectives.ScheduleCollectives;
import io.mpirunj.collectives.runner.CompiledSchedule;
import io.mpirunj.collectives.runner.ScheduleCache;
import io.mpirunj.collectives.runner.ScheduleRunner;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.placement.Placement;
import io.mpirunj.fabric.topology.StarGraph;
import io.mpirunj.fabric.topology.Topology;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveOp;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The star-graph broadcasts by name ({@value StarBcast#NAME}, {@value StarBcast#MATCHED_NAME},
 * {@value AkersStarBcast#NAME}): as placement-aware schedule builders for {@code mpirun-j schedule
 * --fabric star:N}, and as live bcast algorithms ({@code --coll bcast=star} in a job started with
 * {@code --fabric star:N} and n! ranks).
 */
public final class StarBroadcasts {

    /** The names, in table order. */
    public static final List<String> NAMES = List.of(StarBcast.NAME, StarBcast.MATCHED_NAME, AkersStarBcast.NAME);

    private static final Logger LOG = LoggerFactory.getLogger(StarBroadcasts.class);

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
        private final AtomicBoolean warned = new AtomicBoolean();

        Live(String name, ScheduleCache cache) {
            this.name = name;
            this.cache = cache;
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
        public void bcast(CollChannel ch, Buffer buf, int root) {
            int p = ch.size();
            if (p == 1) {
                return;
            }
            String fabric = ch.config().fabricSpec();
            String why = null;
            Topology topology = null;
            int[] nodeOf = null;
            if (fabric == null) {
                why = "the job has no --fabric";
            } else {
                try {
                    topology = Topology.parse(fabric);
                    if (!(topology instanceof StarGraph)) {
                        why = "--fabric " + fabric + " is not a star graph";
                    } else if (topology.nodes() != p) {
                        why = "--fabric " + fabric + " has " + topology.nodes() + " nodes for " + p + " ranks";
                    } else {
                        String placement = ch.config().placementSpec();
                        nodeOf = Placement.parse(placement == null ? "identity" : placement, topology, p);
                    }
                } catch (IllegalArgumentException e) {
                    why = e.getMessage();
                }
            }
            if (why != null) {
                fallback(ch, why).bcast(ch, buf, root);
                return;
            }
            int[] placed = nodeOf;
            Topology star = topology;
            String key = fabric + " " + (ch.config().placementSpec() == null ? "identity" : ch.config().placementSpec());
            CompiledSchedule compiled = cache.get(new ScheduleCache.Key(Collective.BCAST, name, p, root,
                    buf.byteLength(), key), () -> build(name, p, root, buf.byteLength(), star, placed));
            int[] participants = new int[p];
            for (int i = 0; i < p; i++) {
                participants[i] = i;
            }
            ScheduleRunner.run(compiled, ch, buf, participants, ch.rank(), ScheduleCollectives.BCAST_TAG);
        }

        /** The default bcast (the highest-priority one that is not a star algorithm), logged once. */
        private CollectiveAlgorithm.Bcast fallback(CollChannel ch, String why) {
            CollectiveAlgorithm.Bcast best = null;
            for (CollectiveAlgorithm a : ch.registry().all(CollectiveOp.BCAST)) {
                if (!NAMES.contains(a.name()) && (best == null || a.priority() > best.priority())) {
                    best = (CollectiveAlgorithm.Bcast) a;
                }
            }
            if (best == null) {
                throw new IllegalStateException("bcast=" + name + " cannot run (" + why + ") and no other bcast is registered");
            }
            if (warned.compareAndSet(false, true)) {
                LOG.warn("bcast={} needs --fabric star:N with N! ranks; {}: using bcast={} instead", name, why, best.name());
            }
            return best;
        }

        @Override
        public String toString() {
            return "bcast=" + name;
        }
    }
}
