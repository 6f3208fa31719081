package io.mpirunj.mpicompat.programs;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/** The classic first program, as written for Open MPI's Java bindings. */
public class Hello {
    /** The program between Init and Finalize ({@link AllPrograms}). */
    public static void run(Intracomm world, String[] args) throws MPIException {
        int rank = world.getRank();
        int size = world.getSize();
        System.out.println("Hello from rank " + rank + " of " + size + " on " + MPI.getProcessorName());
    }
}
