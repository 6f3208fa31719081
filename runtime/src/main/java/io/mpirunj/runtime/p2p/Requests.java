package io.mpirunj.runtime.p2p;

import io.mpirunj.MpiException;
import io.mpirunj.Request;
import java.util.concurrent.locks.LockSupport;

/** Waiting on several requests at once. */
public final class Requests {
    private Requests() {
    }

    /** Blocks until one request has completed and returns the lowest such index. */
    public static int waitAny(Request... requests) {
        if (requests.length == 0) {
            throw new IllegalArgumentException("waitAny of no requests");
        }
        int i = firstDone(requests);
        if (i >= 0) {
            return i;
        }
        Thread me = Thread.currentThread();
        for (Request r : requests) {
            if (r instanceof RequestImpl) {
                ((RequestImpl) r).onCompletion(() -> LockSupport.unpark(me));
            }
        }
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

    private static int firstDone(Request[] requests) {
        for (int i = 0; i < requests.length; i++) {
            if (requests[i].test()) {
                return i;
            }
        }
        return -1;
    }
}
