package io.mpirunj.collectives.mesh;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.collectives.FabricFallback;
import io.mpirunj.collectives.FabricSpecs;
import io.mpirunj.collectives.ScheduleCollectives;
import io.mpirunj.collectives.baseline.Multicasts;
import io.mpirunj.collectives.runner.CompiledSchedule;
import io.mpirunj.collectives.runner.ModelProvider;
import io.mpirunj.collectives.runner.ScheduleCache;
import io.mpirunj.collectives.runner.ScheduleRunner;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.topology.Mesh;
import io.mpirunj.fabric.topology.Topology;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@value OptMeshMulticast#NAME} and {@value UMeshMulticast#NAME} as live multicast and bcast
 * algorithms ({@code --coll multicast=opt-mesh}): the job's {@code --fabric} (a mesh, torus or
 * hypercube) and {@code --placement} say on which node each rank sits; each call builds (or finds in
 * the cache) the schedule for its participants' nodes and runs it with the {@link ScheduleRunner}.
 * Without a mesh, torus or hypercube fabric a call runs the highest-priority other algorithm of its
 * operation instead and logs one warning per algorithm and JVM saying what is missing (as the star
 * broadcasts do).
 */
public final class LiveMeshMulticasts {

    private static final List<String> NAMES = List.of(OptMeshMulticast.NAME, UMeshMulticast.NAME);

    private LiveMeshMulticasts() {
    }

    /** Whether {@code a} is one of these (placed on a mesh fabric). */
    public static boolean isLive(CollectiveAlgorithm a) {
        return a instanceof Live;
    }

    /** A multicast and a bcast per mesh algorithm. */
    public static List<CollectiveAlgorithm> algorithms(ModelProvider models, ScheduleCache cache) {
        List<CollectiveAlgorithm> out = new ArrayList<>();
        for (String name : NAMES) {
            out.add(new LiveMulticast(name, models, cache));
            out.add(new LiveBcast(name, models, cache));
        }
        return out;
    }

    /** What both operations share: the placed schedule over {@code participants}, rooted at index 0. */
    abstract static class Live implements CollectiveAlgorithm {
        final String name;
        final ModelProvider models;
        final ScheduleCache cache;
        private final FabricFallback fallback;

        Live(String name, ModelProvider models, ScheduleCache cache) {
            this.name = name;
            this.models = models;
            this.cache = cache;
            this.fallback = new FabricFallback(op(), name, "--fabric mesh:RxC (torus, hypercube) and --placement");
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String description() {
            return "schedule: " + MeshMulticasts.description(name) + "; needs --fabric mesh:RxC (torus, hypercube) and"
                    + " --placement; " + models.describe();
        }

        @Override
        public int priority() {
            return ScheduleCollectives.PRIORITY;
        }

        /** Why this job cannot run the algorithm (no mesh fabric), or null when it can. */
        final String unfit(CollChannel ch) {
            String fabric = ch.config().fabricSpec();
            if (fabric == null) {
                return "the job has no --fabric";
            }
            try {
                return FabricSpecs.topology(fabric) instanceof Mesh ? null
                        : "--fabric " + fabric + " is not a mesh, torus or hypercube";
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            }
        }

        /** The highest-priority algorithm of this operation that needs no fabric, logged once. */
        final CollectiveAlgorithm fallback(CollChannel ch, String why) {
            return fallback.instead(ch, why);
        }

        final CompiledSchedule schedule(CollChannel ch, Collective collective, int[] participants, long bytes) {
            String fabric = ch.config().fabricSpec();
            String placement = ch.config().placementSpec() == null ? "identity" : ch.config().placementSpec();
            Topology topology = FabricSpecs.topology(fabric);
            int[] nodeOfRank = FabricSpecs.nodeOf(placement, fabric, ch.size());
            int[] nodeOf = new int[participants.length];
            for (int i = 0; i < participants.length; i++) {
                nodeOf[i] = nodeOfRank[participants[i]];
            }
            CostModel model = models.model();
            String key = fabric + " " + placement + " " + model + " " + Arrays.toString(participants);
            return cache.get(new ScheduleCache.Key(collective, name, participants.length, 0, bytes, key), () -> {
                Schedule s = MeshMulticasts.multicast(name, participants.length, 0, bytes, model, topology, nodeOf);
                return s.withCollective(collective);
            });
        }
    }

    static final class LiveMulticast extends Live implements CollectiveAlgorithm.Multicast {
        LiveMulticast(String name, ModelProvider models, ScheduleCache cache) {
            super(name, models, cache);
        }

        @Override
        public Request multicast(CollChannel ch, Buffer buf, int root, int[] group, boolean blocking) {
            String why = unfit(ch);
            if (why != null) {
                return ((CollectiveAlgorithm.Multicast) fallback(ch, why)).multicast(ch, buf, root, group, blocking);
            }
            return Multicasts.multicast(blocking, ch, buf, root, group, ScheduleCollectives.MULTICAST_TAG,
                    (c, participants) -> schedule(ch, c, participants, buf.byteLength()));
        }

        @Override
        public String toString() {
            return "multicast=" + name;
        }
    }

    static final class LiveBcast extends Live implements CollectiveAlgorithm.Bcast {
        LiveBcast(String name, ModelProvider models, ScheduleCache cache) {
            super(name, models, cache);
        }

        @Override
        public Request bcast(CollChannel ch, Buffer buf, int root, boolean blocking) {
            String why = unfit(ch);
            if (why != null) {
                return ((CollectiveAlgorithm.Bcast) fallback(ch, why)).bcast(ch, buf, root, blocking);
            }
            return Multicasts.bcast(blocking, ch, buf, root, ScheduleCollectives.BCAST_TAG,
                    (c, participants) -> schedule(ch, c, participants, buf.byteLength()));
        }

        @Override
        public String toString() {
            return "bcast=" + name;
        }
    }
}
