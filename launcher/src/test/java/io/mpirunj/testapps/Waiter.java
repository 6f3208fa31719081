package io.mpirunj.testapps;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;

/** Every rank says it is ready, then waits for a message that never comes. */
public final class Waiter {
    private Waiter() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        world.barrier();
        System.out.println("rank " + world.rank() + " waiting");
        world.recv(Buffer.of(new int[1]), Comm.ANY_SOURCE, 99);
        Mpi.finish();
    }
}
