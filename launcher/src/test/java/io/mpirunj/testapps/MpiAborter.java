package io.mpirunj.testapps;

import mpi.MPI;

/**
 * As {@link Aborter}, written for Open MPI's Java API: rank args[0] calls {@code abort(args[1])}; the others wait
 * for a message that never comes, so their receive ends with the abort inside an {@code mpi.MPIException}.
 */
public final class MpiAborter {
    private MpiAborter() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        int victim = Integer.parseInt(args[0]);
        if (MPI.COMM_WORLD.getRank() == victim) {
            MPI.COMM_WORLD.abort(Integer.parseInt(args[1]));
        }
        MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, victim, 99);
        MPI.Finalize();
    }
}
