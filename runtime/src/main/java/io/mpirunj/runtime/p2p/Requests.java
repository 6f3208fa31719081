package io.mpirunj.runtime.p2p;

import io.mpirunj.MpiException;
import io.mpirunj.Request;
import io.mpirunj.runtime.transport.TransportProgress;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waiting on several requests at once. */
public final class Requests {
    private Requests() {
    }

    /**
     * Waits for every non-null entry in order with {@code await} (given the entry and its index), keeping what it
     * returns at the entry's index in {@code out}; a failure of type {@code failure} waits until every other entry
     * has been waited for, then the first is rethrown (MPI_Waitall completes what it can before it reports).
     * Serves the runtime's {@link Request} and the {@code mpi} bindings' requests alike.
     */
    public static <R, S, E extends RuntimeException> S[] awaitAll(R[] requests, S[] out, Class<E> failure,
            Await<R, S> await) {
        E first = null;
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] == null) {
                continue;
            }
            try {
                out[i] = await.await(requests[i], i);
            } catch (RuntimeException e) {
                if (!failure.isInstance(e)) {
                    throw e;
                }
                if (first == null) {
                    first = failure.cast(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
        return out;
    }

    /** Waits for one entry of {@link #awaitAll}, given its index (an int: nothing boxed per entry). */
    @FunctionalInterface
    public interface Await<R, S> {
        S await(R request, int index);
    }

    /**
     * Blocks until one request has completed and returns the lowest such index; null entries are no requests, and
     * with none but null entries returns {@link Request#UNDEFINED}.
     */
    public static int waitAny(Request... requests) {
        int i = firstDone(requests);
        if (i >= 0) {
            return i;
        }
        if (i == NO_REQUEST) {
            return Request.UNDEFINED;
        }
        Thread me = Thread.currentThread();
        TransportProgress io = null;
        for (Request r : requests) {
            if (r instanceof RequestImpl && ((RequestImpl) r).drivableTransport() != null) {
                io = ((RequestImpl) r).drivableTransport();
                break;
            }
        }
        TransportProgress driven = io;
        for (Request r : requests) {
            if (r instanceof RequestImpl) {
                ((RequestImpl) r).onCompletion(() -> {
                    LockSupport.unpark(me);
                    if (driven != null) {
                        driven.wakeup();
                    }
                });
            }
        }
        if (io != null && io.enterDriving()) {
            try {
                i = driveUntilAnyDone(io, requests);
            } finally {
                io.exitDriving();
            }
            if (i >= 0) {
                return i;
            }
        }
        if (io != null) {
            io.beginPassiveWait();
        }
        try {
            return parkUntilAnyDone(requests);
        } finally {
            if (io != null) {
                io.endPassiveWait();
            }
        }
    }

    /** Drives {@code io} on this thread until a request completes (its index) or {@code io} stops (-1). */
    private static int driveUntilAnyDone(TransportProgress io, Request[] requests) {
        BooleanSupplier anyDone = () -> firstDone(requests) >= 0;
        int i;
        while ((i = firstDone(requests)) < 0) {
            if (io.driveOnce(WaitPolicy.PROGRESS_PARK_NANOS, anyDone) < 0) {
                return -1;
            }
            for (Request r : requests) {
                if (r instanceof RequestImpl) {
                    ((RequestImpl) r).driveProgress();
                    break;
                }
            }
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                if ((i = firstDone(requests)) >= 0) {
                    return i;
                }
                throw new MpiException("interrupted in waitAny");
            }
        }
        return i;
    }

    private static int parkUntilAnyDone(Request[] requests) {
        Thread me = Thread.currentThread();
        int i;
        while ((i = firstDone(requests)) < 0) {
            // Bounded park: a foreign Request implementation cannot wake us; progress hooks run meanwhile.
            LockSupport.parkNanos(requests, 1_000_000L);
            for (Request r : requests) {
                if (r instanceof RequestImpl) {
                    ((RequestImpl) r).driveProgress();
                    break;
                }
            }
            if (Thread.interrupted()) {
                me.interrupt();
                if ((i = firstDone(requests)) >= 0) {
                    return i;
                }
                throw new MpiException("interrupted in waitAny");
            }
        }
        return i;
    }

    /** What {@link #firstDone} returns when no request is done: some are pending, or every entry is null. */
    private static final int PENDING = -1;
    private static final int NO_REQUEST = -2;

    /** The lowest index of a completed request, else {@link #PENDING}, or {@link #NO_REQUEST}: one pass. */
    private static int firstDone(Request[] requests) {
        int none = NO_REQUEST;
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] != null) {
                if (requests[i].test()) {
                    return i;
                }
                none = PENDING;
            }
        }
        return none;
    }
}
