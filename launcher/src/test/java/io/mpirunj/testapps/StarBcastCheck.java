package io.mpirunj.testapps;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import java.util.Arrays;

/**
 * Broadcasts from several roots and sizes with {@code Comm.bcast} (whatever {@code --coll} forces),
 * checks every byte on every rank and prints {@code passed bcast on N ranks} on rank 0. Exits
 * non-zero (via an exception) on the first mismatch.
 */
public final class StarBcastCheck {
    private StarBcastCheck() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        int n = world.size();
        for (int root : new int[] {0, n - 1, n / 2}) {
            for (int size : new int[] {0, 1, 1001, 100_003}) {
                byte[] expected = new byte[size];
                for (int i = 0; i < size; i++) {
                    expected[i] = (byte) (i * 31 + root * 7 + size);
                }
                byte[] buf = world.rank() == root ? expected.clone() : new byte[size];
                world.bcast(Buffer.of(buf), root);
                if (!Arrays.equals(buf, expected)) {
                    throw new IllegalStateException("rank " + world.rank() + ": wrong data from root " + root
                            + ", " + size + " bytes");
                }
            }
        }
        world.barrier();
        if (world.rank() == 0) {
            System.out.println("passed bcast on " + n + " ranks");
        }
        Mpi.finish();
    }
}
