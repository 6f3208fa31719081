package io.mpirunj.testapps;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import io.mpirunj.RankFailedException;

/**
 * Once rank 0's message reaches it, rank 1 halts with status 3 (process mode); rank 0 waits for a message from it,
 * catches the {@link RankFailedException} and returns from main without Mpi.finish, as a program that gives up on a
 * failed job.
 */
public final class CatchesPeerLoss {
    private CatchesPeerLoss() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        if (world.rank() == 1) {
            world.recv(Buffer.of(new int[1]), 0, 4); // rank 0 is past every call that needs rank 1 alive
            Runtime.getRuntime().halt(3);
        }
        world.send(Buffer.of(new int[1]), 1, 4);
        try {
            world.recv(Buffer.of(new int[1]), 1, 5);
        } catch (RankFailedException e) {
            System.out.println("rank " + world.rank() + " caught the loss of rank " + e.failedRank() + " and returns");
        }
    }
}
