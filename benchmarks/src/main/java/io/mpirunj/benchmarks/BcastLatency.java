package io.mpirunj.benchmarks;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import io.mpirunj.Op;
import io.mpirunj.Request;
import io.mpirunj.runtime.RankContext;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveOp;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Broadcast latency of every registered bcast algorithm, in the format of OSU's osu_bcast:
 * {@code mpirun-j -np 8 [--threads] -cp benchmarks/target/classes io.mpirunj.benchmarks.BcastLatency
 * [maxBytes [alg1,alg2,...]]}.
 *
 * <p>For each algorithm and each size from 1 B to {@code maxBytes} (default 1 MiB): a warm-up, then
 * {@code iterations} broadcasts from root 0 with a barrier after each; every rank times only its
 * broadcast calls; the latency printed is the largest of the ranks' mean times (like osu_bcast's
 * max column; its default "Avg" column averages the ranks instead). Iterations follow OSU: 1000
 * (warm-up 100) up to 8 KiB, 100 (warm-up 10) above.
 *
 * <p>Each algorithm is called directly on a duplicate of the world communicator (its own context),
 * through a {@link CollChannel} on that duplicate's point-to-point, so one run covers every
 * algorithm without {@code --coll}. The path is the algorithm's own; only the runtime's dispatch
 * ({@code Comm.bcast} -> registry) is skipped.
 */
public final class BcastLatency {
    private static final int SMALL_ITERATIONS = 1_000;
    private static final int SMALL_WARMUP = 100;
    private static final int LARGE_ITERATIONS = 100;
    private static final int LARGE_WARMUP = 10;

    private BcastLatency() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        int max = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 20;
        List<String> only = args.length > 1 ? Arrays.asList(args[1].split(",")) : List.of();
        RankContext rc = RankContext.current();
        CollectiveRegistry registry = rc.registry();
        Comm comm = world.dup();
        CollChannel ch = new DupChannel(comm, registry);
        List<CollectiveAlgorithm> algorithms = new ArrayList<>();
        for (CollectiveAlgorithm a : registry.all(CollectiveOp.BCAST)) {
            if (only.isEmpty() || only.contains(a.name())) {
                algorithms.add(a);
            }
        }
        int rank = world.rank();
        byte[] data = new byte[max];
        double[] mine = new double[1];
        double[] worst = new double[1];
        for (CollectiveAlgorithm a : algorithms) {
            CollectiveAlgorithm.Bcast bcast = (CollectiveAlgorithm.Bcast) a;
            if (rank == 0) {
                System.out.println("# mpirun-j bcast latency (osu_bcast style): algorithm " + a.name() + " -- "
                        + a.description());
                System.out.println("# np " + world.size() + ", transport " + rc.transport().getClass().getSimpleName()
                        + ", eager limit " + rc.config().eagerLimitBytes() + " B, root 0; " + OsuFormat.conditions());
                System.out.println("# latency = max over ranks of each rank's mean bcast time; barrier between iterations");
                System.out.println(String.format("%-10s%18s", "# Size", "Avg Latency(us)"));
            }
            for (int size : OsuFormat.sizes(1, max)) {
                boolean large = size > OsuFormat.LARGE_MESSAGE_BYTES;
                int iterations = large ? LARGE_ITERATIONS : SMALL_ITERATIONS;
                int warmup = large ? LARGE_WARMUP : SMALL_WARMUP;
                Buffer buf = Buffer.of(data, 0, size);
                long totalNs = 0;
                comm.barrier();
                for (int i = -warmup; i < iterations; i++) {
                    long t0 = System.nanoTime();
                    bcast.bcast(ch, buf, 0);
                    long t = System.nanoTime() - t0;
                    if (i >= 0) {
                        totalNs += t;
                    }
                    comm.barrier();
                }
                mine[0] = totalNs / 1_000.0 / iterations;
                comm.reduce(Buffer.of(mine), Buffer.of(worst), Op.MAX, 0);
                if (rank == 0) {
                    System.out.println(OsuFormat.row(size, worst[0]));
                }
            }
            if (rank == 0) {
                System.out.println();
            }
        }
        comm.close();
        Mpi.finish();
    }

    /** Point-to-point on a private duplicate communicator, as a collective channel. */
    private static final class DupChannel implements CollChannel {
        private final Comm comm;
        private final CollectiveRegistry registry;

        DupChannel(Comm comm, CollectiveRegistry registry) {
            this.comm = comm;
            this.registry = registry;
        }

        @Override
        public int rank() {
            return comm.rank();
        }

        @Override
        public int size() {
            return comm.size();
        }

        @Override
        public Comm comm() {
            return comm;
        }

        @Override
        public Request isend(Buffer buf, int dest, int tag) {
            return comm.isend(buf, dest, tag);
        }

        @Override
        public Request irecv(Buffer buf, int source, int tag) {
            return comm.irecv(buf, source, tag);
        }

        @Override
        public CollectiveRegistry registry() {
            return registry;
        }
    }
}
