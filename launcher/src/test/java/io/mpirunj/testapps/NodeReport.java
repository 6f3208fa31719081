package io.mpirunj.testapps;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import io.mpirunj.Op;

/**
 * Sums the ranks over every rank (so every pair of nodes talks), then prints
 * {@code rank R of N on HOST local L/LS sum S}: HOST is the address the rank listens on.
 */
public final class NodeReport {
    private NodeReport() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        int[] mine = {world.rank()};
        int[] sum = new int[1];
        world.allreduce(Buffer.of(mine), Buffer.of(sum), Op.SUM);
        System.out.println("rank " + world.rank() + " of " + world.size() + " on "
                + System.getenv().getOrDefault("MPIRUNJ_ADVERTISE_HOST", "127.0.0.1") + " local "
                + System.getenv("OMPI_COMM_WORLD_LOCAL_RANK") + "/" + System.getenv("OMPI_COMM_WORLD_LOCAL_SIZE")
                + " sum " + sum[0]);
        Mpi.finish();
    }
}
