package io.mpirunj.docker.apps;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;

/** Joins, says {@code rank R ready}, then waits in a bcast from rank 0 that never comes. */
public final class Blocker {
    private Blocker() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        world.barrier();
        System.out.println("rank " + world.rank() + " ready");
        System.out.flush();
        if (world.rank() != 0) {
            world.bcast(Buffer.of(new int[1]), 0);
        } else {
            world.recv(Buffer.of(new int[1]), Comm.ANY_SOURCE, 7);
        }
        Mpi.finish();
    }
}
