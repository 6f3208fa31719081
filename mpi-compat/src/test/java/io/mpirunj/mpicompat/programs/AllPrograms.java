package io.mpirunj.mpicompat.programs;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Every test program, one after the other, in one job (one JVM start-up per rank for all of them). Each
 * program is the part of an Open MPI Java program between {@code MPI.Init} and {@code MPI.Finalize};
 * {@link #runAlone} runs one as a whole program.
 */
public class AllPrograms {

    /** A test program: what it does between Init and Finalize, on {@code world}. */
    public interface Program {
        void run(Intracomm world, String[] args) throws MPIException;
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        String[] none = {};
        Hello.run(world, none);
        Ring.run(world, new String[] {"2"});
        CollectivesArrays.run(world, none);
        CollectivesDirect.run(world, none);
        NonBlocking.run(world, none);
        Split.run(world, none);
        UserOp.run(world, none);
        if (world.getRank() == 0) {
            System.out.println("all programs passed on " + world.getSize() + " ranks");
        }
        MPI.Finalize();
    }

    /** {@code program} as a program of its own: Init, the program on COMM_WORLD, Finalize. */
    public static void runAlone(Program program, String[] args) throws MPIException {
        MPI.Init(args);
        program.run(MPI.COMM_WORLD, args);
        MPI.Finalize();
    }
}
