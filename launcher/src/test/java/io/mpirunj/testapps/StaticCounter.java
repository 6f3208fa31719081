package io.mpirunj.testapps;

import io.mpirunj.Comm;
import io.mpirunj.Mpi;

/** Increments a static field once per rank: with per-rank class loaders every rank prints 1. */
public final class StaticCounter {
    private static int counter;

    private StaticCounter() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        counter++;
        world.barrier();
        System.out.println("rank " + world.rank() + " counter " + counter);
        Mpi.finish();
    }
}
