package io.mpirunj.examples;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;

/**
 * Passes a token around the ring 0 &rarr; 1 &rarr; ... &rarr; N-1 &rarr; 0; each rank adds its rank
 * to it, so rank 0 finally receives 0 + 1 + ... + (N-1). Optional argument: the number of laps
 * (default 1).
 *
 * <pre>
 *   $ mpirun-j -np 4 --tag-output io.mpirunj.examples.Ring
 *   [0] rank 0 sent token 0 to rank 1
 *   [1] rank 1 received token 0 from rank 0, sent 1 to rank 2
 *   [2] rank 2 received token 1 from rank 1, sent 3 to rank 3
 *   [3] rank 3 received token 3 from rank 2, sent 6 to rank 0
 *   [0] rank 0 received token 6 from rank 3: ring of 4 done (expected 6)
 * </pre>
 */
public final class Ring {
    private static final int TAG = 7;

    private Ring() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        int laps = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        int rank = world.rank();
        int size = world.size();
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        long[] token = new long[1];
        long expected = (long) laps * size * (size - 1) / 2;
        if (size == 1) {
            System.out.println("rank 0: ring of 1, token " + token[0] + " (nothing to pass)");
            Mpi.finish();
            return;
        }
        for (int lap = 0; lap < laps; lap++) {
            if (rank == 0) {
                world.send(Buffer.of(token), next, TAG);
                System.out.println("rank 0 sent token " + token[0] + " to rank " + next);
                world.recv(Buffer.of(token), prev, TAG);
                if (lap == laps - 1) {
                    System.out.println("rank 0 received token " + token[0] + " from rank " + prev + ": ring of "
                            + size + " done (expected " + expected + ")");
                    if (token[0] != expected) {
                        System.err.println("rank 0: wrong token " + token[0] + ", expected " + expected);
                        world.abort(1);
                    }
                }
            } else {
                world.recv(Buffer.of(token), prev, TAG);
                long got = token[0];
                token[0] += rank;
                world.send(Buffer.of(token), next, TAG);
                System.out.println("rank " + rank + " received token " + got + " from rank " + prev + ", sent "
                        + token[0] + " to rank " + next);
            }
        }
        Mpi.finish();
    }
}
