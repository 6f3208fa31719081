package io.mpirunj;

import java.util.concurrent.TimeUnit;

/**
 * A non-blocking operation in flight, returned by {@link Comm#isend} and {@link Comm#irecv}.
 * Thread-safe: any thread may test or await it.
 */
public interface Request {
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

    /** Waits for all requests; rethrows the first failure after all have completed or failed. */
    static Status[] waitAll(Request... requests) {
        Status[] out = new Status[requests.length];
        MpiException first = null;
        for (int i = 0; i < requests.length; i++) {
            try {
                out[i] = requests[i].await();
            } catch (MpiException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        if (first != null) {
            throw first;
        }
        return out;
    }

    /** Waits until one of the requests completes and returns its index. */
    static int waitAny(Request... requests) {
        return io.mpirunj.runtime.p2p.Requests.waitAny(requests);
    }

    /** True if every request has completed; never blocks. */
    static boolean testAll(Request... requests) {
        for (Request r : requests) {
            if (!r.test()) {
                return false;
            }
        }
        return true;
    }
}
