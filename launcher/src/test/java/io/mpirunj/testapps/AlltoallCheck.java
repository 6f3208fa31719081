package io.mpirunj.testapps;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import java.util.Arrays;

/**
 * One {@code alltoall} per block size (1, 3, 257 longs), every element checked against a value no
 * other (origin, destination, index) shares; rank 0 prints {@code passed alltoall} when all ranks
 * passed. The job's {@code --coll} and {@code --fabric} choose the algorithm (e.g. SEM).
 */
public final class AlltoallCheck {
    private AlltoallCheck() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        int p = world.size();
        int r = world.rank();
        int failures = 0;
        for (int block : new int[] {1, 3, 257}) {
            long[] send = new long[p * block];
            long[] recv = new long[p * block];
            Arrays.fill(recv, -1);
            for (int j = 0; j < p; j++) {
                for (int i = 0; i < block; i++) {
                    send[j * block + i] = ((long) r << 40) | ((long) j << 20) | i;
                }
            }
            world.alltoall(Buffer.of(send), Buffer.of(recv));
            for (int j = 0; j < p; j++) {
                for (int i = 0; i < block; i++) {
                    if (recv[j * block + i] != (((long) j << 40) | ((long) r << 20) | i)) {
                        failures++;
                    }
                }
            }
        }
        int[] total = new int[1];
        world.reduce(Buffer.of(new int[] {failures}), Buffer.of(total), io.mpirunj.Op.SUM, 0);
        if (r == 0) {
            System.out.println(total[0] == 0 ? "passed alltoall" : "FAILED alltoall: " + total[0] + " wrong elements");
        }
        Mpi.finish();
    }
}
