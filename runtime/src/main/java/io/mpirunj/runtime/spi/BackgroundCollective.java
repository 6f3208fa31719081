package io.mpirunj.runtime.spi;

import io.mpirunj.Request;
import io.mpirunj.Status;
import io.mpirunj.runtime.p2p.RequestImpl;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How a collective algorithm written with blocking point-to-point calls serves a non-blocking call
 * when it has no schedule to be progressed by: it runs on a daemon thread of its own, on the channel
 * (whose tags are the call's own) it was given, and completes the returned request. Real overlap (the
 * caller computes meanwhile); schedule-based algorithms do better, progressing from completion
 * callbacks without a thread.
 */
public final class BackgroundCollective {

    private static final AtomicInteger THREADS = new AtomicInteger();
    private static final ExecutorService POOL = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "mpirunj-nbc-" + THREADS.incrementAndGet());
        t.setDaemon(true);
        return t;
    });

    private BackgroundCollective() {
    }

    /**
     * The one switch between the forms of such an algorithm (see {@link CollectiveAlgorithm}): runs
     * {@code body} here and returns null ({@code blocking}), or starts it on a background thread and
     * returns its request.
     */
    public static Request runOrStart(boolean blocking, Runnable body) {
        if (blocking) {
            body.run();
            return null;
        }
        return run(body);
    }

    /** Starts {@code body} on a background thread; the request completes when it returns or fails. */
    public static Request run(Runnable body) {
        RequestImpl request = new RequestImpl(io.mpirunj.runtime.p2p.WaitPolicy.standalone());
        POOL.execute(() -> {
            try {
                body.run();
                request.complete(new Status(-1, -1, 0, 1));
            } catch (RuntimeException e) {
                request.fail(e);
            } catch (Error e) {
                request.fail(new io.mpirunj.MpiException("non-blocking collective failed: " + e));
                throw e;
            }
        });
        return request;
    }
}
