package io.mpirunj.testapps;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import io.mpirunj.runtime.RankContext;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveOp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Runs every registered bcast and multicast algorithm on this job's world (through the
 * communicator's own collective channel, as Comm.bcast does) for several roots, groups and sizes
 * (0 B to 4 MiB), checks every byte, and prints one line per algorithm that passed. Exits non-zero
 * (via an exception) on the first mismatch.
 */
public final class EveryBcastAndMulticast {
    private static final int[] SIZES = {0, 1, 13, 100_003, 4 << 20};

    private EveryBcastAndMulticast() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        int n = world.size();
        CollChannel ch = CollChannel.of(world);
        var registry = RankContext.current().registry();
        for (CollectiveAlgorithm a : registry.all(CollectiveOp.BCAST)) {
            if (a instanceof CollectiveAlgorithm.Parameterized) {
                continue; // bcast=file:FILE.json needs its file
            }
            for (int root : new int[] {0, n - 1, n / 2}) {
                for (int size : SIZES) {
                    byte[] buf = world.rank() == root ? pattern(size, a.name(), root) : new byte[size];
                    ((CollectiveAlgorithm.Bcast) a).bcast(ch, Buffer.of(buf), root, true);
                    check(buf, pattern(size, a.name(), root), "bcast " + a.name() + " root " + root);
                }
            }
            report(world, "bcast " + a.name());
        }
        SplittableRandom rnd = new SplittableRandom(7);
        for (CollectiveAlgorithm a : registry.all(CollectiveOp.MULTICAST)) {
            if (a instanceof CollectiveAlgorithm.Parameterized) {
                continue; // multicast=file:FILE.json needs its file
            }
            for (int trial = 0; trial < 3; trial++) {
                int root = rnd.nextInt(n);
                List<Integer> members = new ArrayList<>();
                for (int r = 0; r < n; r++) {
                    if (r != root && rnd.nextBoolean()) {
                        members.add(r);
                    }
                }
                int[] group = members.stream().mapToInt(Integer::intValue).toArray();
                boolean in = world.rank() == root || members.contains(world.rank());
                for (int size : SIZES) {
                    byte[] expected = pattern(size, a.name(), root + 100 * trial);
                    byte[] buf = world.rank() == root ? expected.clone() : new byte[size];
                    if (in) {
                        ((CollectiveAlgorithm.Multicast) a).multicast(ch, Buffer.of(buf), root, group, true);
                        check(buf, expected, "multicast " + a.name() + " root " + root + " group " + Arrays.toString(group));
                    }
                }
            }
            report(world, "multicast " + a.name());
        }
        Mpi.finish();
    }

    private static byte[] pattern(int size, String algorithm, int seed) {
        byte[] b = new byte[size];
        new SplittableRandom(algorithm.hashCode() * 31L + seed * 7L + size).nextBytes(b);
        return b;
    }

    private static void check(byte[] got, byte[] expected, String what) {
        if (!Arrays.equals(got, expected)) {
            int i = Arrays.mismatch(got, expected);
            throw new IllegalStateException(what + ": " + got.length + "-byte buffer differs at byte " + i);
        }
    }

    /** Everyone reaches the same point, then one line per algorithm (from rank 0). */
    private static void report(Comm world, String what) {
        world.barrier();
        if (world.rank() == 0) {
            System.out.println("passed " + what);
        }
    }
}
