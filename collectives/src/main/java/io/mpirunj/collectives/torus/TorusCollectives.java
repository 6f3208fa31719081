package io.mpirunj.collectives.torus;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.collectives.FabricSpecs;
import io.mpirunj.collectives.baseline.PairwiseAlltoall;
import io.mpirunj.collectives.runner.CompiledSchedule;
import io.mpirunj.collectives.runner.ScheduleBuffers;
import io.mpirunj.collectives.runner.ScheduleCache;
import io.mpirunj.collectives.runner.ScheduleRequest;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.fabric.topology.Mesh;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveProvider;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The torus all-to-alls as live collectives: {@code --coll alltoall=sem}. SEM runs when the job
 * has a square torus fabric ({@code mpirun-j --fabric torus:NxN}) and the communicator has N²
 * ranks; schedule node v is the rank the placement puts on node v (row-major, rank = node id,
 * unless {@code --placement} says otherwise). Otherwise the call falls back to the default
 * all-to-all (pairwise exchange) and says why, once per JVM, in the log.
 *
 * <p>Schedules are built once per (N, block size), verified, and shared by the ranks of the JVM; the
 * non-blocking form ({@code ialltoall}) runs the same schedule, advanced by its own messages.
 */
public final class TorusCollectives implements CollectiveProvider {

    @Override
    public List<CollectiveAlgorithm> algorithms() {
        return List.of(alltoall(SemAlltoall.NAME));
    }

    /** The live torus all-to-all {@code name}. */
    public static CollectiveAlgorithm alltoall(String name) {
        return new TorusAlltoall(TorusAlltoalls.entry(name));
    }

    /** One torus all-to-all by name, with its fallback. Below the baselines' priority: forced only. */
    public static final class TorusAlltoall implements CollectiveAlgorithm.Alltoall {
        private static final Logger LOG = LoggerFactory.getLogger(TorusAlltoall.class);
        /** Built once per (side, block size), verified, and shared by the ranks of this JVM. */
        private static final ScheduleCache CACHE = new ScheduleCache();

        private final TorusAlltoalls.Entry entry;
        private final CollectiveAlgorithm.Alltoall fallback = new PairwiseAlltoall();
        private final AtomicBoolean warned = new AtomicBoolean();

        TorusAlltoall(TorusAlltoalls.Entry entry) {
            this.entry = entry;
        }

        @Override
        public String name() {
            return entry.name();
        }

        @Override
        public String description() {
            return entry.description() + " (needs --fabric torus:NxN and N*N ranks; "
                    + "on another fabric, " + fallback.name() + ")";
        }

        @Override
        public int priority() {
            return 1;
        }

        @Override
        public java.util.Set<io.mpirunj.runtime.spi.AlgorithmTrait> traits() {
            return io.mpirunj.collectives.catalogue.AlgorithmCatalogue.lookup(op(), name()).traits();
        }

        @Override
        public Request alltoall(CollChannel ch, Buffer send, Buffer recv, boolean blocking) {
            int[] rankOfNode = rankOfNode(ch.config(), ch.size());
            if (rankOfNode == null) {
                ch.ranInstead(fallback);
                return fallback.alltoall(ch, send, recv, blocking);
            }
            return execute(blocking, schedule(ch, send), ch, send, recv, rankOfNode);
        }

        private CompiledSchedule schedule(CollChannel ch, Buffer send) {
            int n = TorusAlltoalls.side(ch.size());
            long blockBytes = send.byteLength() / ch.size();
            return CACHE.get(new ScheduleCache.Key(Collective.ALLTOALL, name(), ch.size(), -1, blockBytes, "torus"),
                    () -> entry.builder().build(n, blockBytes));
        }

        /**
         * Which communicator rank sits on each torus node, or null (after logging why, once) when
         * the job's fabric is not a square torus of exactly this many nodes.
         */
        int[] rankOfNode(RuntimeConfig config, int size) {
            FabricSpecs.Placed placed = FabricSpecs.place(config, size, (t, fabric) -> {
                if (!(t instanceof Mesh m) || !m.wraps() || m.dimensions() != 2 || m.extent(0) != m.extent(1)) {
                    return "--fabric " + fabric + " is not a square 2D torus";
                }
                return t.nodes() == size ? null : "the communicator has " + size + " ranks, the torus " + t.nodes()
                        + " nodes";
            });
            String why = placed.why();
            int[] nodeOf = placed.nodeOf();
            if (why != null) {
                if (warned.compareAndSet(false, true)) {
                    LOG.warn("alltoall={}: {}; using {} instead (SEM needs --fabric torus:NxN and N*N ranks)",
                            name(), why, fallback.name());
                }
                return null;
            }
            int[] rankOf = new int[size];
            for (int r = 0; r < size; r++) {
                rankOf[nodeOf[r]] = r;
            }
            return rankOf;
        }

        /**
         * Runs (blocking: returns null) or starts this rank's program with the generic runner: schedule
         * rank v is torus node v, played by communicator rank {@code rankOfNode[v]}. A block (o, d) is
         * block d of o's send buffer and block o of d's receive buffer in node numbering; when the
         * placement is not the identity, the counts-and-displacements layout puts node v's block where
         * rank {@code rankOfNode[v]}'s lies (no copies, so the non-blocking form needs no thread).
         */
        private static Request execute(boolean blocking, CompiledSchedule compiled, CollChannel ch, Buffer send,
                Buffer recv, int[] rankOfNode) {
            int size = ch.size();
            int me = -1;
            boolean identity = true;
            for (int v = 0; v < size; v++) {
                identity &= rankOfNode[v] == v;
                if (rankOfNode[v] == ch.rank()) {
                    me = v;
                }
            }
            ScheduleBuffers buffers = ScheduleBuffers.of(send, recv);
            if (!identity) {
                int[] counts = new int[size];
                int[] displs = new int[size];
                java.util.Arrays.fill(counts, send.count() / size);
                for (int v = 0; v < size; v++) {
                    displs[v] = rankOfNode[v] * counts[v];
                }
                buffers = new ScheduleBuffers(send, recv, counts, displs, counts, displs);
            }
            return ScheduleRequest.runOrStart(blocking, compiled, ch, buffers, rankOfNode, me,
                    io.mpirunj.collectives.ScheduleCollectives.ALLTOALL_TAG);
        }

        @Override
        public String toString() {
            return "alltoall=" + name();
        }
    }
}
