package io.mpirunj.docker.apps;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import io.mpirunj.runtime.RankContext;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveOp;
import java.util.Arrays;

/**
 * Every registered bcast and alltoall algorithm, chosen through {@code Comm.withCollectives}, on
 * this job's world: checks every element, then rank 0 prints {@code passed OP NAME}.
 */
public final class EveryAlgorithm {
    private static final int[] COUNTS = {1, 1000, 65_536};

    private EveryAlgorithm() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        int n = world.size();
        int me = world.rank();
        var registry = RankContext.current().registry();
        for (CollectiveAlgorithm a : registry.all(CollectiveOp.BCAST)) {
            if (a instanceof CollectiveAlgorithm.Parameterized) {
                continue; // file: schedules need a file
            }
            Comm c = world.withCollectives("bcast=" + a.name());
            for (int root : new int[] {0, n - 1}) {
                for (int count : COUNTS) {
                    int[] buf = me == root ? pattern(count, root) : new int[count];
                    c.bcast(Buffer.of(buf), root);
                    check(buf, pattern(count, root), "bcast " + a.name() + " root " + root + " count " + count);
                }
            }
            report(world, "bcast " + a.name());
        }
        for (CollectiveAlgorithm a : registry.all(CollectiveOp.ALLTOALL)) {
            if (a instanceof CollectiveAlgorithm.Parameterized) {
                continue; // file: schedules need a file
            }
            Comm c = world.withCollectives("alltoall=" + a.name());
            for (int count : COUNTS) {
                int[] send = new int[count * n];
                for (int i = 0; i < send.length; i++) {
                    send[i] = me * 1_000_003 + i; // block d goes to rank d
                }
                int[] recv = new int[count * n];
                c.alltoall(Buffer.of(send), Buffer.of(recv));
                int[] expected = new int[count * n];
                for (int src = 0; src < n; src++) {
                    for (int i = 0; i < count; i++) {
                        expected[src * count + i] = src * 1_000_003 + me * count + i;
                    }
                }
                check(recv, expected, "alltoall " + a.name() + " count " + count);
            }
            report(world, "alltoall " + a.name());
        }
        Mpi.finish();
    }

    private static int[] pattern(int count, int seed) {
        int[] b = new int[count];
        for (int i = 0; i < count; i++) {
            b[i] = i * 31 + seed;
        }
        return b;
    }

    private static void check(int[] got, int[] expected, String what) {
        if (!Arrays.equals(got, expected)) {
            throw new IllegalStateException(what + ": differs at element " + Arrays.mismatch(got, expected));
        }
    }

    private static void report(Comm world, String what) {
        world.barrier();
        if (world.rank() == 0) {
            System.out.println("passed " + what);
        }
    }
}
