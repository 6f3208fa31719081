package io.mpirunj.testapps;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Bcasts from every root, sizes 0 B to 4 MiB, each with its own data and no barrier in between,
 * through {@code Comm.bcast} (so through whatever {@code --coll bcast=...} forces); checks every byte
 * and prints "passed bcast np=N" from rank 0.
 */
public final class TtccBcast {
    private static final int[] SIZES = {0, 1, 13, 100_003, 4 << 20};

    private TtccBcast() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        int seed = 0;
        for (int root = 0; root < world.size(); root++) {
            for (int size : SIZES) {
                byte[] expected = new byte[size];
                new SplittableRandom(++seed).nextBytes(expected);
                byte[] buf = world.rank() == root ? expected.clone() : new byte[size];
                world.bcast(Buffer.of(buf), root);
                if (!Arrays.equals(buf, expected)) {
                    throw new IllegalStateException("bcast root " + root + " size " + size + ": rank " + world.rank()
                            + " differs at byte " + Arrays.mismatch(buf, expected));
                }
            }
        }
        world.barrier();
        if (world.rank() == 0) {
            System.out.println("passed bcast np=" + world.size());
        }
        Mpi.finish();
    }
}
