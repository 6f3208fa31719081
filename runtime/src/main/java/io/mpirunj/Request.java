package io.mpirunj;

import java.util.concurrent.TimeUnit;

/**
 * A non-blocking operation in flight, returned by {@link Comm#isend} and {@link Comm#irecv}.
 * Thread-safe: any thread may test or await it.
 */
public interface Request {
    /**
     * What {@link #waitAny} returns when no request is active: every entry null (MPI's {@code MPI_REQUEST_NULL}, e.g.
     * a finished request a loop has set to null) or none at all. MPI's {@code MPI_UNDEFINED}.
     */
    int UNDEFINED = -1;
    /** Blocks until the operation completes; returns its status (for a send, a status with the destination). */
    Status await();

    /**
     * Blocks at most {@code timeout}; returns the status, or null if the operation is still
     * pending.
     */
    Status await(long timeout, TimeUnit unit);

    /** True once the operation has completed (successfully or not); never blocks. */
    boolean test();

    /** The status of a completed operation; throws its error if it failed; null while pending. */
    Status status();

    /**
     * Waits for all requests; rethrows the first failure after all have completed or failed. A null entry is no
     * request (its status is null).
     */
    static Status[] waitAll(Request... requests) {
        return io.mpirunj.runtime.p2p.Requests.awaitAll(requests, new Status[requests.length], MpiException.class,
                (r, i) -> r.await());
    }

    /**
     * Waits until one of the requests completes and returns its index (the lowest, if several have); null entries
     * are no requests, and if every entry is null (or there is none), returns {@link #UNDEFINED} at once.
     */
    static int waitAny(Request... requests) {
        return io.mpirunj.runtime.p2p.Requests.waitAny(requests);
    }

    /** True if every request has completed (a null entry is no request); never blocks. */
    static boolean testAll(Request... requests) {
        for (Request r : requests) {
            if (r != null && !r.test()) {
                return false;
            }
        }
        return true;
    }
}
