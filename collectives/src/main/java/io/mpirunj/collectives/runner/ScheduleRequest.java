package io.mpirunj.collectives.runner;

import io.mpirunj.Request;
import io.mpirunj.Status;
import io.mpirunj.runtime.p2p.RequestImpl;
import io.mpirunj.runtime.spi.CollChannel;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A non-blocking collective: one rank's {@link ScheduleRunner.Execution}, advanced whenever one of
 * its point-to-point requests completes (a completion callback), on whichever thread completed it.
 * No thread of its own and no polling: the engine's completions drive it, and the request completes
 * when the rank's program has. Advancing never blocks: a callback that finds another thread
 * advancing leaves it a note to look again.
 */
public final class ScheduleRequest extends RequestImpl {

    private final ScheduleRunner.Execution execution;
    /** Advance calls asked for and not yet served: only the caller that raised it from 0 advances. */
    private final AtomicInteger wanted = new AtomicInteger();
    /** Requests whose completion already calls {@link #advance}. Touched only while advancing. */
    private final Set<Request> watched = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Runnable advance = this::advance;

    private ScheduleRequest(ScheduleRunner.Execution execution, CollChannel ch) {
        super(ch.waitPolicy()); // its waiter drives the rank's transport, as a point-to-point waiter does
        this.execution = execution;
    }

    /** Starts this rank's program of {@code compiled} and returns the request that completes with it. */
    public static Request start(CompiledSchedule compiled, CollChannel ch, ScheduleBuffers buffers, int[] participants,
            int me, int tag) {
        ScheduleRequest r = new ScheduleRequest(ScheduleRunner.start(compiled, ch, buffers, participants, me, tag), ch);
        r.advance();
        return r;
    }

    /**
     * Runs this rank's program of {@code compiled} to completion and returns null ({@code blocking}), or
     * starts it and returns its request: the one switch between a collective's blocking and
     * non-blocking forms.
     */
    public static Request runOrStart(boolean blocking, CompiledSchedule compiled, CollChannel ch,
            ScheduleBuffers buffers, int[] participants, int me, int tag) {
        if (blocking) {
            ScheduleRunner.run(compiled, ch, buffers, participants, me, tag);
            return null;
        }
        return start(compiled, ch, buffers, participants, me, tag);
    }

    private void advance() {
        if (wanted.getAndIncrement() != 0) {
            return; // the thread advancing now will look again
        }
        do {
            step();
        } while (wanted.decrementAndGet() != 0);
    }

    private void step() {
        if (test()) {
            return;
        }
        try {
            if (execution.progress()) {
                complete(new Status(-1, -1, 0, 1));
                return;
            }
            for (Request r : execution.outstanding()) {
                if (watched.add(r)) {
                    if (r instanceof RequestImpl impl) {
                        impl.onCompletion(advance); // runs at once if already complete: counted by wanted
                    } else {
                        throw new IllegalStateException("cannot watch " + r + ": not a request of this runtime");
                    }
                }
            }
        } catch (RuntimeException e) {
            fail(e);
        }
    }
}
