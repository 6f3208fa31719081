package com.example.spmd;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import io.mpirunj.Op;

/**
 * Computes pi by the midpoint rule, the intervals dealt round-robin to the ranks:
 * {@code mpirun-j -np 4 -cp target/classes com.example.spmd.Pi 1000000}.
 */
public final class Pi {
    private Pi() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        int intervals = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        double pi = pi(world, intervals);
        if (world.rank() == 0) {
            System.out.println("pi ~ " + pi + " from " + world.size() + " ranks");
        }
        Mpi.finish();
    }

    /** Collective over {@code world}: every rank returns the same estimate. */
    public static double pi(Comm world, int intervals) {
        double[] local = {0};
        double[] total = {0};
        for (int i = world.rank(); i < intervals; i += world.size()) {
            double x = (i + 0.5) / intervals;
            local[0] += 4 / (1 + x * x) / intervals;
        }
        world.allreduce(Buffer.of(local), Buffer.of(total), Op.SUM);
        return total[0];
    }
}
