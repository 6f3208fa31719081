package io.mpirunj.mpicompat.programs;

import mpi.MPI;
import mpi.MPIException;

/** Every test program, one after the other, in one job (one JVM start-up per rank for all of them). */
public class AllPrograms {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        String[] none = {};
        Hello.run(none);
        Ring.run(new String[] {"2"});
        CollectivesArrays.run(none);
        CollectivesDirect.run(none);
        NonBlocking.run(none);
        Split.run(none);
        UserOp.run(none);
        if (MPI.COMM_WORLD.getRank() == 0) {
            System.out.println("all programs passed on " + MPI.COMM_WORLD.getSize() + " ranks");
        }
        MPI.Finalize();
    }
}
