package io.mpirunj.mpicompat.programs;

import mpi.Comm;
import mpi.MPIException;

/** The calling rank's neighbours on the ring of a communicator's ranks, wrapping round at the ends. */
final class Neighbours {
    private Neighbours() {
    }

    /** The rank above the caller (rank 0 above the last). */
    static int right(Comm comm) throws MPIException {
        return (comm.getRank() + 1) % comm.getSize();
    }

    /** The rank below the caller (the last below rank 0). */
    static int left(Comm comm) throws MPIException {
        int size = comm.getSize();
        return (comm.getRank() + size - 1) % size;
    }
}
