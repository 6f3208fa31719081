package mpi;

import io.mpirunj.runtime.p2p.RequestImpl;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

/**
 * The one place where this package starts a non-blocking collective ({@code iBcast}, {@code iAllReduce},
 * ...). When the runtime's {@code io.mpirunj.Comm} gains non-blocking collectives of its own, only
 * {@link #start} changes.
 *
 * <p>Until then each one is run honestly on what exists: the blocking collective, on a worker thread
 * of its communicator, over a duplicate of that communicator (made when the communicator is), so its
 * messages can never match the caller's own traffic or blocking collectives on the original. A
 * communicator's non-blocking collectives run one at a time in call order, which is the order MPI
 * requires every rank to start them in, so all ranks run them in the same order. The returned request
 * completes when the collective has finished on this rank.
 */
final class NonBlockingCollectives {
    /** A collective that runs on a given runtime communicator. */
    @FunctionalInterface
    interface Task {
        void run(io.mpirunj.Comm comm);
    }

    private final io.mpirunj.Comm shadow;
    private ExecutorService worker;

    /** @param shadow a duplicate of the communicator, for this adapter's use only */
    NonBlockingCollectives(io.mpirunj.Comm shadow) {
        this.shadow = shadow;
    }

    /** Starts {@code task}; the request completes when it has run (or fails with its error). */
    synchronized Request start(String call, Task task) {
        if (worker == null) {
            // started from a rank thread, the worker inherits that rank's context
            worker = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "mpi-nonblocking-collectives");
                t.setDaemon(true);
                return t;
            });
        }
        RequestImpl done = new RequestImpl(io.mpirunj.runtime.p2p.WaitPolicy.standalone());
        try {
            worker.execute(() -> {
                try {
                    task.run(shadow);
                    done.complete(new io.mpirunj.Status(MPI.ANY_SOURCE, MPI.ANY_TAG, 0, 1));
                } catch (RuntimeException e) {
                    done.fail(e);
                }
            });
        } catch (RejectedExecutionException e) {
            throw new MPIException(call + ": the communicator has been freed", e);
        }
        return new Request(call, done, null);
    }

    /** Lets queued collectives finish, then stops the worker; frees the duplicate communicator. */
    synchronized void close() {
        if (worker != null) {
            worker.shutdown();
        }
        shadow.close();
    }
}
