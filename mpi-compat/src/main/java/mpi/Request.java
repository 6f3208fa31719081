package mpi;

import java.util.ArrayList;
import java.util.List;

/**
 * A non-blocking operation (MPI_Request). Once a wait or a successful test has returned its status,
 * the request is inactive: {@link #isNull()} is true and waiting on it again returns at once.
 *
 * <p>Thread-safe in the way the runtime's requests are: any thread may test or wait.
 */
public class Request implements Freeable {
    /** The operation in flight; null once inactive. */
    private volatile io.mpirunj.Request inner;
    /** Work to do after completion, before the user sees the data (copying a staged receive back). */
    private Runnable onDone;
    private final String call;

    Request(String call, io.mpirunj.Request inner, Runnable onDone) {
        this.call = call;
        this.inner = inner;
        this.onDone = onDone;
    }

    /** A request that is already complete with {@code status} (e.g. one with {@link MPI#PROC_NULL}). */
    static Request completed(String call, Status status) {
        io.mpirunj.runtime.p2p.RequestImpl r = new io.mpirunj.runtime.p2p.RequestImpl(io.mpirunj.runtime.p2p.WaitPolicy.standalone());
        r.complete(new io.mpirunj.Status(status.getSource(), status.getTag(), 0, 1));
        return new Request(call, r, null);
    }

    /** Re-arms a persistent request with the operation {@code r} has just posted. */
    final synchronized void adopt(Request r) {
        this.onDone = r.onDone;
        this.inner = r.inner;
    }

    /** The active operation, or null. */
    final io.mpirunj.Request active() {
        return inner;
    }

    /** Completes the request's bookkeeping after its operation finished; returns its status. */
    private synchronized Status finish(io.mpirunj.Request r) {
        if (inner != r) { // another thread finished it first
            return Status.of(r.status());
        }
        io.mpirunj.Status s;
        try {
            s = r.status();
        } catch (RuntimeException e) {
            inner = null;
            throw MPIException.of(call, e);
        }
        Runnable done = onDone;
        onDone = null;
        inner = null;
        if (done != null) {
            MPIException.naming(call, done);
        }
        return Status.of(s);
    }

    private static Status emptyStatus() {
        return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, 0);
    }

    @Override
    public void free() {
        inner = null;
    }

    /** Not supported: a request cannot be withdrawn once posted here. */
    public final void cancel() {
        throw new MPIException("Request.cancel is not supported by mpirun-j's mpi package", null,
                MPI.ERR_UNSUPPORTED_OPERATION);
    }

    public boolean isNull() {
        return inner == null;
    }

    /** Blocks until the operation completes and returns its status (MPI_WAIT). */
    public final Status waitStatus() {
        io.mpirunj.Request r = inner;
        if (r == null) {
            return emptyStatus();
        }
        try {
            r.await();
        } catch (RuntimeException e) {
            // fall through: finish() reports the failure with the call's name
        }
        return finish(r);
    }

    /** Blocks until the operation completes (MPI_WAIT). */
    public final void waitFor() {
        waitStatus();
    }

    /** The status if the operation has completed (then the request is inactive), else null (MPI_TEST). */
    public final Status testStatus() {
        io.mpirunj.Request r = inner;
        if (r == null) {
            return emptyStatus();
        }
        return r.test() ? finish(r) : null;
    }

    /** True if the operation has completed (then the request is inactive) (MPI_TEST). */
    public final boolean test() {
        return testStatus() != null;
    }

    /** The status if the operation has completed, else null; the request stays active (MPI_REQUEST_GET_STATUS). */
    public final Status getStatus() {
        io.mpirunj.Request r = inner;
        if (r == null) {
            return emptyStatus();
        }
        if (!r.test()) {
            return null;
        }
        return delivered(r);
    }

    /**
     * The status of the completed {@code r}, after the work to do on completion (copying a staged receive into
     * the user's buffer) has run, once: a request that MPI_REQUEST_GET_STATUS calls complete has its data in place.
     * The request stays active.
     */
    private synchronized Status delivered(io.mpirunj.Request r) {
        Status s = MPIException.naming(call, () -> Status.of(r.status()));
        if (inner == r && onDone != null) {
            Runnable done = onDone;
            onDone = null; // the wait or test that ends the request must not copy again
            MPIException.naming(call, done);
        }
        return s;
    }

    // ---- several requests -----------------------------------------------------------------------

    /** Blocks until one active request completes; its status carries its index (MPI_WAITANY). */
    public static Status waitAnyStatus(Request[] requests) {
        int i = waitAny0(requests);
        return i == MPI.UNDEFINED ? emptyStatus().withIndex(MPI.UNDEFINED) : requests[i].waitStatus().withIndex(i);
    }

    /** Blocks until one active request completes and returns its index, or UNDEFINED if none is active. */
    public static int waitAny(Request[] requests) {
        int i = waitAny0(requests);
        if (i != MPI.UNDEFINED) {
            requests[i].waitStatus();
        }
        return i;
    }

    private static int waitAny0(Request[] requests) {
        io.mpirunj.Request[] waited = new io.mpirunj.Request[requests.length]; // null: inactive, as in ours
        for (int i = 0; i < requests.length; i++) {
            waited[i] = requests[i] == null ? null : requests[i].inner;
        }
        int i = MPIException.naming("Request.waitAny", () -> io.mpirunj.Request.waitAny(waited));
        return i == io.mpirunj.Request.UNDEFINED ? MPI.UNDEFINED : i;
    }

    /** The status of one completed request (which becomes inactive), or null if none has (MPI_TESTANY). */
    public static Status testAnyStatus(Request[] requests) {
        for (int i = 0; i < requests.length; i++) {
            io.mpirunj.Request r = requests[i] == null ? null : requests[i].inner;
            if (r != null && r.test()) {
                return requests[i].finish(r).withIndex(i);
            }
        }
        return null;
    }

    /** The index of one completed request (which becomes inactive), or UNDEFINED (MPI_TESTANY). */
    public static int testAny(Request[] requests) {
        Status s = testAnyStatus(requests);
        return s == null ? MPI.UNDEFINED : s.getIndex();
    }

    /** Waits for every request; statuses in request order (MPI_WAITALL). */
    public static Status[] waitAllStatus(Request[] requests) {
        return io.mpirunj.runtime.p2p.Requests.awaitAll(requests, new Status[requests.length], MPIException.class,
                (r, i) -> r.waitStatus().withIndex(i));
    }

    public static void waitAll(Request[] requests) {
        waitAllStatus(requests);
    }

    /** Every status if every request has completed, else null (and nothing changes) (MPI_TESTALL). */
    public static Status[] testAllStatus(Request[] requests) {
        for (Request q : requests) {
            io.mpirunj.Request r = q == null ? null : q.inner;
            if (r != null && !r.test()) {
                return null;
            }
        }
        return waitAllStatus(requests);
    }

    public static boolean testAll(Request[] requests) {
        return testAllStatus(requests) != null;
    }

    /** Blocks until at least one request completes; the statuses of all that have (MPI_WAITSOME). */
    public static Status[] waitSomeStatus(Request[] requests) {
        if (waitAny0(requests) == MPI.UNDEFINED) {
            return null;
        }
        return testSomeStatus(requests);
    }

    public static int[] waitSome(Request[] requests) {
        return indexes(waitSomeStatus(requests));
    }

    /** The statuses of the requests that have completed (maybe none) (MPI_TESTSOME). */
    public static Status[] testSomeStatus(Request[] requests) {
        List<Status> done = new ArrayList<>();
        for (int i = 0; i < requests.length; i++) {
            io.mpirunj.Request r = requests[i] == null ? null : requests[i].inner;
            if (r != null && r.test()) {
                done.add(requests[i].finish(r).withIndex(i));
            }
        }
        return done.toArray(new Status[0]);
    }

    public static int[] testSome(Request[] requests) {
        return indexes(testSomeStatus(requests));
    }

    private static int[] indexes(Status[] s) {
        if (s == null) {
            return null;
        }
        int[] out = new int[s.length];
        for (int i = 0; i < s.length; i++) {
            out[i] = s[i].getIndex();
        }
        return out;
    }
}
