package io.mpirunj.collectives;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.collectives.baseline.Multicasts;
import io.mpirunj.collectives.catalogue.AlgorithmCatalogue;
import io.mpirunj.collectives.runner.JobModels;
import io.mpirunj.collectives.multicast.MulticastAlgorithms;
import io.mpirunj.collectives.runner.CompiledSchedule;
import io.mpirunj.collectives.runner.ModelProvider;
import io.mpirunj.collectives.runner.ScheduleCache;
import io.mpirunj.collectives.runner.ScheduleRunner;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.star.StarBroadcasts;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.PairCostModel;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.spi.AlgorithmTrait;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveOp;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The schedule-based bcasts and multicasts: every tree of the {@link AlgorithmCatalogue} as a bcast and as
 * a multicast algorithm of the same name ({@code --coll bcast=opt-tree,multicast=fibonacci}), plus the
 * star-graph bcasts of {@link StarBroadcasts} (which need the job's {@code --fabric star:N}). The catalogue
 * makes them (found by {@link java.util.ServiceLoader} through its {@code CatalogueProvider}); this
 * provider gives tests the same algorithms with a model and cache of their own. Each call
 * looks its schedule up in a shared {@link ScheduleCache} (building it on a miss) and runs this
 * rank's program with the {@link ScheduleRunner}.
 *
 * <h2>Participants</h2>
 * A bcast runs a schedule rooted at index 0 over the communicator rotated so that index i is rank
 * {@code (root + i) mod p}: one cached schedule serves every root. A multicast runs a schedule rooted
 * at index 0 over {@code [root, group members in the listed order without the root]}, as the baseline
 * multicasts do; ranks outside that list take no part.
 *
 * <h2>Model</h2>
 * The builders need a cost model; it comes from a {@link ModelProvider} (default:
 * {@link ModelProvider#fromEnvironment()}, the IBM SP model unless {@code -Dmpirunj.model} or
 * {@code MPIRUNJ_MODEL} says otherwise); the job's {@code --model} ({@code RuntimeConfig#modelSpec()}, as
 * ranks-as-threads see it) wins over it. Every rank must use the same model; each algorithm's
 * description names it. A per-pair model ({@code MPIRUNJ_MODEL=pairs:FILE}, indexed by communicator
 * rank) is handed to the builder renumbered by the participants, so the heterogeneous trees (ECEF,
 * TTCC) are built on the links the ranks really have, whatever the root. Without one they are built
 * on the unit matrix (see {@code TtccMulticast}).
 *
 * <h2>Tags and ordering</h2>
 * All messages of a bcast use tag {@value #BCAST_TAG}, of a multicast {@value #MULTICAST_TAG}
 * (distinct from the baseline range {@code CollTags} 1001-1014), on the communicator's collective
 * context. Consecutive collectives on one communicator stay apart by MPI's non-overtaking rule: each
 * rank sends and posts receives in schedule order, so the k-th message between two ranks always
 * meets the k-th receive for it (see {@link ScheduleRunner}).
 *
 * <h2>Priority</h2>
 * {@value #PRIORITY}, below the baselines (10): these are chosen only when forced, until selection
 * rules from calibration promote them.
 */
public final class ScheduleCollectives implements CollectiveProvider {

    /** Tag of every message of a schedule-based bcast. */
    public static final int BCAST_TAG = 1101;
    /** Tag of every message of a schedule-based multicast. */
    public static final int MULTICAST_TAG = 1102;
    /** Tag of every message of a schedule-based all-to-all (the torus ones, and one read from a file). */
    public static final int ALLTOALL_TAG = 1103;
    /** Below the baseline defaults (10), so forcing is needed for now. */
    public static final int PRIORITY = 5;

    /** The cache shared by every rank of this JVM (ranks as threads share their schedules). */
    private static final ScheduleCache SHARED_CACHE = new ScheduleCache();

    private final ModelProvider models;
    private final ScheduleCache cache;

    /** With the model from the environment and the JVM-wide cache (what {@link java.util.ServiceLoader} uses). */
    public ScheduleCollectives() {
        this(ModelProvider.fromEnvironment(), SHARED_CACHE);
    }

    public ScheduleCollectives(ModelProvider models, ScheduleCache cache) {
        this.models = Objects.requireNonNull(models, "models");
        this.cache = Objects.requireNonNull(cache, "cache");
    }

    /** The bcasts and multicasts of the {@link AlgorithmCatalogue} but the baselines, with this model and cache. */
    @Override
    public List<CollectiveAlgorithm> algorithms() {
        AlgorithmCatalogue.Services services = new AlgorithmCatalogue.Services(models, cache);
        List<CollectiveAlgorithm> out = new ArrayList<>();
        for (AlgorithmCatalogue.Entry e : AlgorithmCatalogue.all()) {
            if (e.isLive() && (e.op() == CollectiveOp.BCAST || e.op() == CollectiveOp.MULTICAST)) {
                CollectiveAlgorithm a = e.live().apply(services);
                if (!a.getClass().getPackageName().equals(Multicasts.class.getPackageName())) { // not the baselines
                    out.add(a);
                }
            }
        }
        return out;
    }

    /**
     * A {@link MulticastAlgorithms} entry run with its builder, model and cache, catalogued as a bcast (over the
     * whole communicator) or as a multicast (over {@code [root, group...]}): the tree is the same, so both methods
     * work either way, and {@link #op()} says which one this instance is catalogued under.
     */
    public static final class ScheduleTree implements CollectiveAlgorithm.Bcast, CollectiveAlgorithm.Multicast {
        private final CollectiveOp catalogued;
        private final MulticastAlgorithms.Entry entry;
        private final Set<AlgorithmTrait> traits;
        private final ModelProvider models;
        private final ScheduleCache cache;
        /** Segment size from a rules file (segmented entries only), or 0: the model chooses. */
        private final long segmentBytes;
        /** The last model seen and its canonical spec, so the spec is formatted once per model, not per call. */
        private volatile ModelKey lastModel;

        /** {@code entry} as the bcast or the multicast {@code catalogued}. */
        public ScheduleTree(CollectiveOp catalogued, MulticastAlgorithms.Entry entry, Set<AlgorithmTrait> traits,
                ModelProvider models, ScheduleCache cache) {
            this(catalogued, entry, traits, models, cache, 0);
        }

        private ScheduleTree(CollectiveOp catalogued, MulticastAlgorithms.Entry entry, Set<AlgorithmTrait> traits,
                ModelProvider models, ScheduleCache cache, long segmentBytes) {
            if (catalogued != CollectiveOp.BCAST && catalogued != CollectiveOp.MULTICAST) {
                throw new IllegalArgumentException("a schedule tree is a bcast or a multicast (got " + catalogued + ")");
            }
            this.catalogued = catalogued;
            this.entry = entry;
            this.traits = traits;
            this.models = models;
            this.cache = cache;
            this.segmentBytes = segmentBytes;
        }

        @Override
        public Set<AlgorithmTrait> traits() {
            return traits;
        }

        @Override
        public CollectiveAlgorithm withSegmentBytes(long bytes) {
            return entry.segments() == null ? this : new ScheduleTree(catalogued, entry, traits, models, cache, bytes);
        }

        @Override
        public CollectiveOp op() {
            return catalogued;
        }

        @Override
        public Request bcast(CollChannel ch, Buffer buf, int root, boolean blocking) {
            return Multicasts.bcast(blocking, ch, buf, root, BCAST_TAG,
                    (c, participants) -> schedule(ch, c, participants, buf.byteLength()));
        }

        @Override
        public Request multicast(CollChannel ch, Buffer buf, int root, int[] group, boolean blocking) {
            return Multicasts.multicast(blocking, ch, buf, root, group, MULTICAST_TAG,
                    (c, participants) -> schedule(ch, c, participants, buf.byteLength()));
        }

        /** The job's model: {@code --model} ({@link RuntimeConfig#modelSpec()}) if given, else the provider's. */
        private CostModel model(RuntimeConfig config) {
            String spec = config.modelSpec();
            return spec == null ? models.model() : JobModels.parse(spec);
        }

        /**
         * The schedule over {@code participants} (schedule rank i is communicator rank
         * {@code participants[i]}) rooted at index 0, from the cache or built now.
         */
        private CompiledSchedule schedule(CollChannel ch, Collective collective, int[] participants, long bytes) {
            int ranks = participants.length;
            CostModel configured = model(ch.config());
            CostModel model = configured instanceof PairCostModel pairs ? viewedBy(pairs, participants) : configured;
            ModelKey m = lastModel;
            if (m == null || m.model != model) {
                m = new ModelKey(model, model.toString());
                lastModel = m;
            }
            String name = entry.name();
            long segment = segmentBytes;
            ScheduleCache.Key key = new ScheduleCache.Key(collective, name, ranks, 0, bytes,
                    segment > 0 ? m.spec + ";segmentBytes=" + segment : m.spec);
            return cache.get(key, () -> {
                Schedule s = segment > 0
                        ? entry.segments().build(ranks, 0, bytes, (int) Math.max(1, Math.min(Integer.MAX_VALUE,
                                (bytes + segment - 1) / segment)))
                        : entry.builder().build(ranks, 0, bytes, model);
                return collective == Collective.BCAST ? s.withCollective(Collective.BCAST) : s;
            });
        }

        /** A per-pair model is indexed by communicator rank: the builder sees it renumbered as its schedule ranks. */
        private static PairCostModel viewedBy(PairCostModel pairs, int[] participants) {
            for (int r : participants) {
                if (r >= pairs.nodes()) {
                    throw new IllegalArgumentException("model " + pairs + " has " + pairs.nodes()
                            + " nodes (expected: one per rank, at least " + (r + 1) + ")");
                }
            }
            return pairs.select(participants);
        }

        @Override
        public String name() {
            return entry.name();
        }

        @Override
        public String description() {
            return "schedule: " + entry.description() + "; " + models.describe()
                    + (segmentBytes > 0 ? "; segments of " + segmentBytes + " bytes" : "");
        }

        @Override
        public int priority() {
            return PRIORITY;
        }

        @Override
        public String toString() {
            return catalogued.cliName() + "=" + entry.name();
        }
    }

    /** A model and its canonical spec (the cache key's model part). */
    private static final class ModelKey {
        final CostModel model;
        final String spec;

        ModelKey(CostModel model, String spec) {
            this.model = model;
            this.spec = spec;
        }
    }
}
