package io.mpirunj.collectives.mesh;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.collectives.ScheduleCollectives;
import io.mpirunj.collectives.baseline.Multicasts;
import io.mpirunj.collectives.runner.CompiledSchedule;
import io.mpirunj.collectives.runner.ModelProvider;
import io.mpirunj.collectives.runner.ScheduleBuffers;
import io.mpirunj.collectives.runner.ScheduleCache;
import io.mpirunj.collectives.runner.ScheduleRequest;
import io.mpirunj.collectives.runner.ScheduleRunner;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.star.StarBroadcasts;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.placement.Placement;
import io.mpirunj.fabric.topology.Mesh;
import io.mpirunj.fabric.topology.Topology;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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

    private static final Logger LOG = LoggerFactory.getLogger(LiveMeshMulticasts.class);
    private static final List<String> NAMES = List.of(OptMeshMulticast.NAME, UMeshMulticast.NAME);

    private LiveMeshMulticasts() {
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
        private final AtomicBoolean warned = new AtomicBoolean();

        Live(String name, ModelProvider models, ScheduleCache cache) {
            this.name = name;
            this.models = models;
            this.cache = cache;
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
                return Topology.parse(fabric) instanceof Mesh ? null
                        : "--fabric " + fabric + " is not a mesh, torus or hypercube";
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            }
        }

        /** The highest-priority algorithm of this operation that needs no fabric, logged once. */
        final CollectiveAlgorithm fallback(CollChannel ch, String why) {
            CollectiveAlgorithm best = null;
            for (CollectiveAlgorithm a : ch.registry().all(op())) {
                boolean placed = a instanceof Live || StarBroadcasts.NAMES.contains(a.name())
                        || a instanceof CollectiveAlgorithm.Parameterized;
                if (!placed && (best == null || a.priority() > best.priority())) {
                    best = a;
                }
            }
            if (best == null) {
                throw new IllegalStateException(op().cliName() + "=" + name + " cannot run (" + why + ") and no other "
                        + op().cliName() + " algorithm is registered");
            }
            if (warned.compareAndSet(false, true)) {
                LOG.warn("{}={} needs --fabric mesh:RxC (torus, hypercube) and --placement; {}: using {}={} instead",
                        op().cliName(), name, why, op().cliName(), best.name());
            }
            return best;
        }

        final CompiledSchedule schedule(CollChannel ch, Collective collective, int[] participants, long bytes) {
            String fabric = ch.config().fabricSpec();
            String placement = ch.config().placementSpec() == null ? "identity" : ch.config().placementSpec();
            Topology topology = Topology.parse(fabric);
            int[] nodeOfRank = Placement.parse(placement, topology, ch.size());
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
        public void multicast(CollChannel ch, Buffer buf, int root, int[] group) {
            int[] participants = Multicasts.participants(root, group, ch.size());
            int me = Multicasts.indexOf(participants, ch.rank());
            if (me < 0 || participants.length == 1) {
                return;
            }
            String why = unfit(ch);
            if (why != null) {
                ((CollectiveAlgorithm.Multicast) fallback(ch, why)).multicast(ch, buf, root, group);
                return;
            }
            ScheduleRunner.run(schedule(ch, Collective.MULTICAST, participants, buf.byteLength()), ch,
                    ScheduleBuffers.of(buf), participants, me, ScheduleCollectives.MULTICAST_TAG);
        }

        @Override
        public Request imulticast(CollChannel ch, Buffer buf, int root, int[] group) {
            int[] participants = Multicasts.participants(root, group, ch.size());
            int me = Multicasts.indexOf(participants, ch.rank());
            if (me < 0 || participants.length == 1) {
                return CollectiveAlgorithm.Multicast.super.imulticast(ch, buf, root, group);
            }
            String why = unfit(ch);
            if (why != null) {
                return ((CollectiveAlgorithm.Multicast) fallback(ch, why)).imulticast(ch, buf, root, group);
            }
            return ScheduleRequest.start(schedule(ch, Collective.MULTICAST, participants, buf.byteLength()), ch,
                    ScheduleBuffers.of(buf), participants, me, ScheduleCollectives.MULTICAST_TAG);
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

        private static int[] rotated(int p, int root) {
            int[] ranks = new int[p];
            for (int i = 0; i < p; i++) {
                ranks[i] = (root + i) % p;
            }
            return ranks;
        }

        @Override
        public void bcast(CollChannel ch, Buffer buf, int root) {
            int p = ch.size();
            if (p == 1) {
                return;
            }
            String why = unfit(ch);
            if (why != null) {
                ((CollectiveAlgorithm.Bcast) fallback(ch, why)).bcast(ch, buf, root);
                return;
            }
            int[] participants = rotated(p, root);
            ScheduleRunner.run(schedule(ch, Collective.BCAST, participants, buf.byteLength()), ch,
                    ScheduleBuffers.of(buf), participants, (ch.rank() - root + p) % p, ScheduleCollectives.BCAST_TAG);
        }

        @Override
        public Request ibcast(CollChannel ch, Buffer buf, int root) {
            int p = ch.size();
            String why = unfit(ch);
            if (why != null) {
                return ((CollectiveAlgorithm.Bcast) fallback(ch, why)).ibcast(ch, buf, root);
            }
            int[] participants = rotated(p, root);
            return ScheduleRequest.start(schedule(ch, Collective.BCAST, participants, buf.byteLength()), ch,
                    ScheduleBuffers.of(buf), participants, (ch.rank() - root + p) % p, ScheduleCollectives.BCAST_TAG);
        }

        @Override
        public String toString() {
            return "bcast=" + name;
        }
    }
}
