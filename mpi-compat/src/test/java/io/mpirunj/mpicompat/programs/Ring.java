package io.mpirunj.mpicompat.programs;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * Open MPI's ring example, in Java: rank 0 sends a counter around the ring and decrements it each
 * time it comes back; every rank leaves once it has passed on a 0. Checks every value and status.
 */
public class Ring {
    /** The program between Init and Finalize ({@link AllPrograms}). */
    public static void run(Intracomm world, String[] args) throws MPIException {
        int rank = world.getRank();
        int next = Neighbours.right(world);
        int prev = Neighbours.left(world);
        int tag = 201;
        int laps = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int[] message = new int[1];
        if (rank == 0) {
            message[0] = laps;
            world.send(message, 1, MPI.INT, next, tag);
        }
        int pass = 0;
        while (true) {
            Status s = world.recv(message, 1, MPI.INT, prev, tag);
            Expect.equal("source", prev, s.getSource());
            Expect.equal("tag", tag, s.getTag());
            Expect.equal("count", 1, s.getCount(MPI.INT));
            Expect.equal("counter at rank " + rank + " on pass " + pass, laps - pass, message[0]);
            pass++;
            if (rank == 0) {
                message[0]--;
            }
            world.send(message, 1, MPI.INT, next, tag);
            if (message[0] == 0) {
                break;
            }
        }
        if (rank == 0) {
            world.recv(message, 1, MPI.INT, prev, tag);
            Expect.equal("the last lap", 0, message[0]);
        }
        Expect.equal("passes at rank " + rank, rank == 0 ? laps : laps + 1, pass);
        System.out.println("rank " + rank + " done after " + pass + " passes");
    }
}
