package mpi;

/**
 * One collective call of this package, its buffers resolved and bounds-checked: the runtime's blocking
 * form, its non-blocking form ({@code io.mpirunj.Comm.i*}, progressed by the runtime like any other
 * request: no thread of this package), and what is left to do once the data are in (copying a staged
 * receive back into the user's buffer, folding the contributions of a reduction this package computes).
 * Blocking and non-blocking calls share one description, so they check and stage alike.
 *
 * @param blocking the runtime's blocking collective
 * @param starting the runtime's non-blocking collective
 * @param finish   what is left to do once the data are in ({@link #NOTHING} when nothing is)
 */
record Collective(Blocking blocking, Starting starting, Runnable finish) {
    /** Runs the runtime's blocking collective. */
    @FunctionalInterface
    interface Blocking {
        void run(io.mpirunj.Comm c);
    }

    /** Starts the runtime's non-blocking collective. */
    @FunctionalInterface
    interface Starting {
        io.mpirunj.Request start(io.mpirunj.Comm c);
    }

    static final Runnable NOTHING = () -> {
    };

    /** Runs the collective now on {@code c} and finishes it. */
    void run(String call, io.mpirunj.Comm c) {
        MPIException.naming(call, () -> {
            blocking.run(c);
            finish.run();
        });
    }

    /** Starts the collective on {@code c}; the request finishes it when a wait or test sees it complete. */
    Request start(String call, io.mpirunj.Comm c) {
        return MPIException.naming(call, () -> new Request(call, starting.start(c), finish));
    }
}
