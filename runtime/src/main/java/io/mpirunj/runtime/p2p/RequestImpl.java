package io.mpirunj.runtime.p2p;

import io.mpirunj.AbortedException;
import io.mpirunj.MpiException;
import io.mpirunj.RankFailedException;
import io.mpirunj.Request;
import io.mpirunj.Status;
import io.mpirunj.TruncationException;
import io.mpirunj.runtime.NanoClock;
import io.mpirunj.runtime.transport.TransportProgress;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * A request completed exactly once, by whichever thread finishes the operation (a transport thread
 * or a peer rank's thread). Waiters spin briefly (not at all when ranks outnumber cores), then yield,
 * then park, as the engine's {@link WaitPolicy} says: short waits stay cheap without burning a core
 * when ranks outnumber cores.
 *
 * <p>The phases are bounded in time, not iterations ({@code Thread.onSpinWait} costs ~25 ns on
 * some CPUs and ~1 ns on others). The pure spin is short (the transport's spin budget): it only pays off
 * when the completing thread runs on another core at that moment (in-JVM ranks, whose transport
 * asks for a longer spin: {@link io.mpirunj.runtime.transport.Transport#spinBeforeYieldNanos}). Most of the wait
 * is spent yielding ({@link #YIELD_NANOS}): on a machine with few cores the thread that will
 * complete the request (a Netty event loop, the peer rank) often waits for <em>this</em> core, and
 * a spinning waiter would delay it until preempted, while a yielding one hands the core over at
 * once yet still notices completion within a microsecond, without the futex wake-up a park costs.
 * Measured on 2 cores (process-mode ping-pong, 1 B): 2000 spins + 20 yields (~63 µs of
 * spinning before any yield) gave ~74 µs one-way; 2 µs spin + yields ~27-36 µs.
 */
public class RequestImpl implements Request, BooleanSupplier {
    /** How waiters wait, and their clock (the engine's). */
    private final WaitPolicy waiting;
    /** Written last by {@link #finish}: a thread that reads it true sees {@link #status} and {@link #error}. */
    private volatile boolean done;
    private Status status;
    private RuntimeException error;
    /** Run once on completion; guarded by this; null after completion. */
    private List<Runnable> listeners;
    /**
     * Run once by the completing thread before anyone can see the request done, with its error (null: success);
     * guarded by this; null when there is none (the common case: completion takes one lock, as without it).
     */
    private java.util.function.Consumer<RuntimeException> beforeDone;
    /** Set, under this, while {@link #beforeDone} runs: the request is being completed, and only once. */
    private boolean completing;
    /**
     * The first thread parked on this request, unparked by {@link #finish} without a listener (so
     * parking allocates nothing); later waiters register listeners. Volatile on both sides: a waiter
     * that set it and then read {@link #done} false is seen by the finisher that set {@code done}.
     */
    private volatile Thread parkedWaiter;
    private static final VarHandle PARKED_WAITER;

    static {
        try {
            PARKED_WAITER = MethodHandles.lookup().findVarHandle(RequestImpl.class, "parkedWaiter", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A request whose waiters wait as {@code waiting} says. */
    public RequestImpl(WaitPolicy waiting) {
        this.waiting = waiting;
    }

    /** Completes successfully; false if the request was already complete. */
    public boolean complete(Status s) {
        return finish(s, null);
    }

    /** Completes with an error; false if the request was already complete. */
    public boolean fail(RuntimeException e) {
        return finish(null, e);
    }

    private boolean finish(Status s, RuntimeException e) {
        java.util.function.Consumer<RuntimeException> first;
        List<Runnable> toRun = null;
        synchronized (this) {
            if (done || completing) {
                return false;
            }
            first = beforeDone;
            if (first == null) {
                toRun = markDone(s, e);
            } else {
                beforeDone = null;
                completing = true;
            }
        }
        if (first != null) {
            try {
                first.accept(e);
            } finally {
                synchronized (this) {
                    toRun = markDone(s, e);
                }
            }
        }
        Thread waiter = parkedWaiter;
        if (waiter != null && waiter != Thread.currentThread()) {
            LockSupport.unpark(waiter);
            waiting.wakeDriver(); // the waiter may be blocked in the transport, driving it
        }
        if (toRun != null) {
            for (Runnable r : toRun) {
                r.run();
            }
        }
        return true;
    }

    /** Under this: the request done with {@code s} or {@code e}; returns the listeners to run. */
    private List<Runnable> markDone(Status s, RuntimeException e) {
        status = s;
        error = e;
        done = true;
        List<Runnable> toRun = listeners;
        listeners = null;
        return toRun;
    }

    /**
     * Runs {@code hook} on the thread that completes this request, with its error (null: success), before any
     * thread can see the request done (a waiter's return, {@link #test}); at once if it is done or being completed
     * (with the error if known). What is counted on completion is then counted before the caller goes on.
     */
    public void beforeCompletion(java.util.function.Consumer<RuntimeException> hook) {
        RuntimeException e;
        synchronized (this) {
            if (!done && !completing) {
                beforeDone = beforeDone == null ? hook : beforeDone.andThen(hook);
                return;
            }
            e = error;
        }
        hook.accept(e);
    }

    /** Runs {@code r} when the request completes (at once if it has). */
    public void onCompletion(Runnable r) {
        synchronized (this) {
            if (!done) {
                if (listeners == null) {
                    listeners = new ArrayList<>(2);
                }
                listeners.add(r);
                return;
            }
        }
        r.run();
    }

    @Override
    public boolean test() {
        return done;
    }

    /** As {@link #test()}: the condition a thread driving the transport waits for. */
    @Override
    public boolean getAsBoolean() {
        return done;
    }

    /** The transport a waiter on this request may drive, or null. */
    TransportProgress drivableTransport() {
        return waiting.io();
    }

    /** Runs the progress hooks of this request's engine (for waiters on several requests). */
    void driveProgress() {
        waiting.progress();
    }

    @Override
    public Status status() {
        if (!done) {
            return null;
        }
        return result();
    }

    /**
     * The outcome; only after this thread has read {@link #done} true (which orders the reads of
     * {@link #status} and {@link #error} after {@link #finish}'s writes).
     */
    private Status result() {
        RuntimeException e = error;
        if (e != null) {
            throw thrownHere(e);
        }
        Status s = status;
        return s != null ? s : successStatus();
    }

    /**
     * The failure {@code e} with the waiter's stack: it was made where the failure was found (a transport thread,
     * another rank's thread in --threads, a waiter driving the transport: Netty's frames), so its trace would name
     * none of the caller's lines, or the wrong rank's. The MPI exceptions are made again here with the same type,
     * message and cause (as ForkJoinTask does for a task's exception); others are thrown as they are.
     */
    private static final String ENGINE_PACKAGE = RequestImpl.class.getPackageName() + ".";

    private static RuntimeException thrownHere(RuntimeException e) {
        Class<?> type = e.getClass();
        RuntimeException here;
        if (type == MpiException.class) {
            here = new MpiException(e.getMessage(), e.getCause());
        } else if (type == RankFailedException.class) {
            here = new RankFailedException(((RankFailedException) e).failedRank(), e.getMessage(), e.getCause());
        } else if (type == TruncationException.class) {
            here = (RuntimeException) new TruncationException(e.getMessage()).initCause(e.getCause());
        } else if (type == AbortedException.class) {
            here = (RuntimeException) new AbortedException(((AbortedException) e).exitCode(), e.getMessage())
                    .initCause(e.getCause());
        } else {
            return e;
        }
        StackTraceElement[] frames = here.getStackTrace();
        int first = 0; // the trace starts at the call that waited (e.g. CommImpl.recv), not in the engine's waiting
        while (first < frames.length - 1 && frames[first].getClassName().startsWith(ENGINE_PACKAGE)) {
            first++;
        }
        here.setStackTrace(java.util.Arrays.copyOfRange(frames, first, frames.length));
        return here;
    }

    /**
     * The status of a request completed with {@code complete(null)}: subclasses that can say it from
     * their own fields build it only when asked, so completing allocates nothing.
     */
    protected Status successStatus() {
        return null;
    }

    @Override
    public Status await() {
        if (!done) {
            waitUntil(Long.MAX_VALUE);
        }
        return result();
    }

    @Override
    public Status await(long timeout, TimeUnit unit) {
        if (!done) {
            waitUntil(waiting.clock().nanoTime() + unit.toNanos(timeout));
        }
        return done ? result() : null;
    }

    /**
     * Waits until done or {@code deadlineNs}: driving the engine's transport when it lets waiters
     * drive and no other thread does, else spinning, yielding and parking.
     */
    private void waitUntil(long deadlineNs) {
        TransportProgress io = waiting.io();
        if (io == null) {
            spinThenYield();
            if (!done) {
                park(deadlineNs);
            }
            return;
        }
        if (io.enterDriving()) {
            boolean drove;
            try {
                drove = drive(io, deadlineNs);
            } finally {
                io.exitDriving();
            }
            if (drove || done) {
                return;
            }
        }
        io.beginPassiveWait(); // another thread drives, or the transport stops: it must not need us
        try {
            spinThenYield();
            if (!done) {
                park(deadlineNs);
            }
        } finally {
            io.endPassiveWait();
        }
    }

    /**
     * Runs the transport's I/O on this thread until done or {@code deadlineNs}: polls without
     * blocking while the policy would spin or yield (yielding the core between polls after the spin),
     * then blocks in the kernel until I/O arrives or another thread completes this request and wakes
     * it. The poll budgets count from the last turn that handled I/O, not from the start of the wait:
     * a large message arriving in pieces (a socket read each) keeps its receiver polling, where
     * blocking between pieces once the budget (100 µs) had passed cost a kernel wake-up per piece on
     * both sides (1 MiB ping-pong, 2 ranks on 2 cores: 16 blocking waits per message, together most of
     * the trip). False if the transport stopped first.
     */
    private boolean drive(TransportProgress io, long deadlineNs) {
        Thread me = Thread.currentThread();
        if (!PARKED_WAITER.compareAndSet(this, null, me) && parkedWaiter != me) {
            onCompletion(() -> { // another thread waits too: it is the one finish() wakes
                LockSupport.unpark(me);
                io.wakeup();
            });
        }
        NanoClock clock = waiting.clock();
        long lastIo = clock.nanoTime();
        while (!done) {
            long now = clock.nanoTime();
            long left = deadlineNs - now;
            if (deadlineNs != Long.MAX_VALUE && left <= 0) {
                return true;
            }
            long idle = now - lastIo;
            long block = 0;
            if (idle >= waiting.drivePollNanos()) {
                block = waiting.hasProgressHooks() ? WaitPolicy.PROGRESS_PARK_NANOS : Long.MAX_VALUE;
                if (deadlineNs != Long.MAX_VALUE) {
                    block = Math.min(block, left);
                }
            }
            int handled = io.driveOnce(block, this);
            if (handled < 0) {
                return false;
            }
            if (handled > 0) {
                lastIo = now;
            }
            waiting.progress();
            if (block == 0 && handled == 0 && idle >= waiting.spinNanos() && !done) {
                Thread.yield();
            }
            if (Thread.interrupted()) {
                me.interrupt();
                if (done) {
                    return true;
                }
                throw new MpiException("interrupted while waiting for " + this);
            }
        }
        return true;
    }

    private void spinThenYield() {
        NanoClock clock = waiting.clock();
        long start = clock.nanoTime();
        if (waiting.spinNanos() > 0) {
            for (int i = 1; !done; i++) {
                Thread.onSpinWait();
                if ((i & 31) == 0) {
                    waiting.progress();
                    if (clock.nanoTime() - start >= waiting.spinNanos()) {
                        break;
                    }
                }
            }
        }
        while (!done && clock.nanoTime() - start < waiting.yieldNanos()) {
            waiting.progress();
            if (!done) {
                Thread.yield();
            }
        }
    }

    private void park(long deadlineNs) {
        Thread me = Thread.currentThread();
        if (!PARKED_WAITER.compareAndSet(this, null, me) && parkedWaiter != me) {
            onCompletion(() -> LockSupport.unpark(me)); // another thread waits too
        }
        while (!done) {
            long left = deadlineNs - waiting.clock().nanoTime();
            if (deadlineNs != Long.MAX_VALUE && left <= 0) {
                return;
            }
            if (waiting.hasProgressHooks()) {
                LockSupport.parkNanos(this, Math.min(WaitPolicy.PROGRESS_PARK_NANOS,
                        deadlineNs == Long.MAX_VALUE ? Long.MAX_VALUE : left));
                waiting.progress();
            } else if (deadlineNs == Long.MAX_VALUE) {
                LockSupport.park(this);
            } else {
                LockSupport.parkNanos(this, left);
            }
            if (Thread.interrupted()) {
                me.interrupt();
                if (done) {
                    return; // completed (perhaps failed) as we were interrupted: report that, not the interrupt
                }
                throw new MpiException("interrupted while waiting for " + this);
            }
        }
    }
}
