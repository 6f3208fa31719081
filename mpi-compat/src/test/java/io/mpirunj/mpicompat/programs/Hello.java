package io.mpirunj.mpicompat.programs;

import mpi.MPI;
import mpi.MPIException;

/** The classic first program, as written for Open MPI's Java bindings. */
public class Hello {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        run(args);
        MPI.Finalize();
    }

    /** The program between Init and Finalize, so that {@link AllPrograms} can run every program in one job. */
    public static void run(String[] args) throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        System.out.println("Hello from rank " + rank + " of " + size + " on " + MPI.getProcessorName());
    }
}
