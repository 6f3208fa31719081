package io.mpirunj.runtime.transport.tcp;

import io.mpirunj.runtime.transport.TransportProgress;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultChannelPromise;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoRegistration;
import io.netty.util.concurrent.AbstractScheduledEventExecutor;
import io.netty.util.concurrent.DefaultPromise;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.Promise;
import io.netty.util.internal.PlatformDependent;
import io.netty.util.internal.ThreadExecutorMap;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Netty I/O event loop without a thread of its own: its "event-loop thread" is whichever thread
 * holds its progress token ({@link #inEventLoop(Thread)} is true for that thread only). So a rank
 * thread waiting in {@code recv} or a collective takes the token and runs the I/O handler itself
 * (reads its sockets, matches, answers) with no hand-off and no unpark, and a sender that finds
 * the token free writes to its channel directly. A helper thread takes the token only while no
 * rank thread is there to drive, so progress goes on while the rank computes.
 *
 * <p>Netty's confinement holds: exactly one thread at a time runs the handler, the tasks and the
 * channels' pipelines, and the token's atomic hand-over orders each holder's work after the last.
 * Work submitted by other threads ({@link #execute}) wakes the holder (blocked in the kernel) or,
 * when nobody holds the token, the helper; a holder that leaves checks for such work after
 * releasing, so none is stranded.
 *
 * <p>The helper looks every {@link #HELPER_TICK_NANOS} (1 ms): when nobody has polled the sockets for a
 * tick and no rank thread entered since its last look (the rank computes or sleeps), it takes the
 * token and blocks in the kernel, driving until a rank thread wants the token back (it wakes the
 * helper, which hands over at once). While it finds the rank driving, it looks half as often each
 * time, down to every {@link #HELPER_MAX_TICK_NANOS} (8 ms): eight helpers waking every millisecond
 * cost the ranks of np 8 on 2 cores ~6 % of the machine and pre-empted them mid-message. It also drives at once for threads that wait without driving
 * ({@link #beginPassiveWait()}) and for submitted work when the token is free. Shutdown runs on the
 * helper.
 */
final class ProgressLoop extends AbstractScheduledEventExecutor implements IoEventLoop, TransportProgress {
    private static final Logger LOG = LoggerFactory.getLogger(ProgressLoop.class);

    /** How often the helper looks whether the rank still drives its own progress; {@link TcpConfig#HELPER_TICK_MICROS_PROP}. */
    static final long HELPER_TICK_NANOS = TimeUnit.MICROSECONDS.toNanos(TcpConfig.helperTickMicros());
    /** The longest the helper waits between looks while the rank drives; {@link TcpConfig#HELPER_MAX_TICK_MICROS_PROP}. */
    static final long HELPER_MAX_TICK_NANOS = Math.max(HELPER_TICK_NANOS,
            TimeUnit.MICROSECONDS.toNanos(TcpConfig.helperMaxTickMicros()));
    /** Longest single block in the kernel (waits are re-checked at least this often). */
    private static final long MAX_BLOCK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** Tasks run per turn at most (a task may resubmit itself). */
    private static final int MAX_TASKS_PER_TURN = 1024;

    private static final int STARTED = 0;
    private static final int SHUTTING_DOWN = 1;
    private static final int TERMINATED = 2;

    /** What {@link #enterForSend()} returns. */
    static final int BUSY = 0;
    static final int ENTERED = 1;
    static final int HELD_ALREADY = 2;

    private final IoHandler handler;
    private final Thread helper;
    /** The progress token: the thread that is this loop's event-loop thread now, or null. */
    private final AtomicReference<Thread> owner = new AtomicReference<>();
    /** Set by a sender that found the helper driving: the rank communicates again, so the helper leaves. */
    private volatile boolean senderKnocked;
    /** A rank thread waiting for the helper to hand the token over. */
    private final AtomicReference<Thread> wanter = new AtomicReference<>();
    private final AtomicInteger passiveWaiters = new AtomicInteger();
    private final AtomicInteger state = new AtomicInteger(STARTED);
    private final Queue<Runnable> tasks = PlatformDependent.newMpscQueue();
    private final Promise<Void> terminationFuture = new DefaultPromise<>(GlobalEventExecutor.INSTANCE);
    private final RunContext context = new RunContext();
    /** Token entries by threads other than the helper; written by the token holder only. */
    private volatile long userEntries;
    /** When the handler last polled the sockets; written by the token holder only. */
    private volatile long lastPollNanos = System.nanoTime();
    private boolean initialized; // token holder only

    ProgressLoop(IoHandlerFactory factory, String name) {
        this.handler = factory.newHandler(this);
        this.helper = new Thread(this::helperLoop, name + "-progress");
        helper.setDaemon(true);
        helper.start();
    }

    // ---- the progress token --------------------------------------------------------------------

    @Override
    public boolean enterDriving() {
        Thread me = Thread.currentThread();
        if (owner.get() == me) {
            throw new IllegalStateException(me.getName() + " waits inside a callback of the transport it drives"
                    + " (the wait could never end)");
        }
        while (state.get() == STARTED) {
            if (owner.compareAndSet(null, me)) {
                userEntries++;
                return true;
            }
            Thread o = owner.get();
            if (o == null) {
                continue;
            }
            if (o != helper || !wanter.compareAndSet(null, me)) {
                return false; // another rank thread drives (or waits to): wait passively
            }
            try {
                handler.wakeup(); // the helper hands over as soon as it returns from the kernel
                while (state.get() == STARTED) {
                    if (owner.compareAndSet(null, me)) {
                        userEntries++;
                        return true;
                    }
                    if (owner.get() != helper && owner.get() != null) {
                        return false;
                    }
                    LockSupport.parkNanos(this, HELPER_TICK_NANOS);
                }
            } finally {
                wanter.compareAndSet(me, null);
            }
        }
        return false;
    }

    /**
     * For a sender: takes the token if it is free (never waits for it). {@link #ENTERED}: the caller
     * holds it now and calls {@link #exitDriving()}; {@link #HELD_ALREADY}: it held it before;
     * {@link #BUSY}: another thread holds it (submit the work instead).
     */
    int enterForSend() {
        Thread me = Thread.currentThread();
        Thread o = owner.get();
        if (o == me) {
            return HELD_ALREADY;
        }
        if (o == null && wanter.get() == null && state.get() == STARTED && owner.compareAndSet(null, me)) {
            userEntries++;
            return ENTERED;
        }
        if (o == helper) {
            senderKnocked = true; // the rank is active again: the helper hands the token back after this turn
        }
        return BUSY;
    }

    @Override
    public int driveOnce(long blockNanos, BooleanSupplier stop) {
        if (owner.get() != Thread.currentThread()) {
            throw new IllegalStateException("driveOnce without the progress token");
        }
        if (state.get() != STARTED) {
            return -1;
        }
        return runOnce(Math.min(blockNanos, MAX_BLOCK_NANOS), stop);
    }

    @Override
    public void exitDriving() {
        if (owner.get() != Thread.currentThread()) {
            throw new IllegalStateException("exitDriving without the progress token");
        }
        release();
    }

    /** Gives the token up; then wakes whoever must take it: a wanter, or the helper for pending work. */
    private void release() {
        owner.set(null);
        Thread w = wanter.get();
        if (w != null) {
            LockSupport.unpark(w);
        } else if (!tasks.isEmpty() || passiveWaiters.get() > 0 || state.get() != STARTED) {
            LockSupport.unpark(helper);
        }
    }

    @Override
    public void wakeup() {
        if (state.get() != TERMINATED && owner.get() != Thread.currentThread()) {
            handler.wakeup();
        }
    }

    @Override
    public void beginPassiveWait() {
        passiveWaiters.incrementAndGet();
        if (owner.get() == null) {
            LockSupport.unpark(helper);
        }
    }

    @Override
    public void endPassiveWait() {
        passiveWaiters.decrementAndGet();
    }

    /** One turn (token held): the handler's ready I/O, blocking up to {@code blockNanos} if idle, then tasks. */
    private int runOnce(long blockNanos, BooleanSupplier stop) {
        if (!initialized) {
            initialized = true;
            handler.initialize();
        }
        context.blockNanos = blockNanos;
        context.stop = stop;
        EventExecutor previous = ThreadExecutorMap.setCurrentExecutor(this);
        try {
            return handler.run(context) + runTasks();
        } finally {
            context.stop = null;
            lastPollNanos = System.nanoTime();
            ThreadExecutorMap.setCurrentExecutor(previous);
        }
    }

    private int runTasks() {
        fetchFromScheduledTaskQueue(tasks);
        int n = 0;
        Runnable task;
        while (n < MAX_TASKS_PER_TURN && (task = tasks.poll()) != null) {
            safeExecute(task);
            n++;
        }
        return n;
    }

    /** What the handler may do in one turn: block (in the kernel) only if nothing else is ready. */
    private final class RunContext implements IoHandlerContext {
        long blockNanos;
        BooleanSupplier stop;

        @Override
        public boolean canBlock() {
            return blockNanos > 0 && tasks.isEmpty() && !hasScheduledTasks() && wanter.get() == null
                    && state.get() == STARTED && (stop == null || !stop.getAsBoolean());
        }

        @Override
        public long delayNanos(long currentTimeNanos) {
            return Math.min(blockNanos, ProgressLoop.this.delayNanos(currentTimeNanos, blockNanos));
        }

        @Override
        public long deadlineNanos() {
            long cap = ticker().nanoTime() + blockNanos;
            long next = nextScheduledTaskDeadlineNanos();
            return next == -1 || next - cap > 0 ? cap : next;
        }
    }

    // ---- the helper ----------------------------------------------------------------------------

    private void helperLoop() {
        long seenEntries = userEntries;
        long tick = HELPER_TICK_NANOS;
        while (true) {
            LockSupport.parkNanos(this, tick);
            if (state.get() != STARTED) {
                if (owner.compareAndSet(null, helper)) {
                    terminate(); // keeps the token: nobody runs the handler after it
                    return;
                }
                continue;
            }
            long entries = userEntries;
            boolean rankIdle = entries == seenEntries && System.nanoTime() - lastPollNanos > HELPER_TICK_NANOS;
            seenEntries = entries;
            boolean needed = !tasks.isEmpty() || passiveWaiters.get() > 0;
            if (!rankIdle && !needed || wanter.get() != null || !owner.compareAndSet(null, helper)) {
                Thread o = owner.get();
                boolean rankDrives = !rankIdle || o != null && o != helper;
                tick = rankDrives ? Math.min(2 * tick, HELPER_MAX_TICK_NANOS) : HELPER_TICK_NANOS;
                continue;
            }
            tick = HELPER_TICK_NANOS;
            senderKnocked = false;
            try {
                boolean block;
                do {
                    block = rankIdle && !senderKnocked || passiveWaiters.get() > 0;
                    runOnce(block ? MAX_BLOCK_NANOS : 0, null);
                } while (block && wanter.get() == null && state.get() == STARTED);
            } catch (Throwable t) {
                LOG.error("{}: progress helper failed a turn", helper.getName(), t);
            } finally {
                release();
            }
            seenEntries = userEntries;
        }
    }

    /** Closes what is registered, runs what is left, destroys the handler (helper, token held). */
    private void terminate() {
        try {
            runTasks();
            handler.prepareToDestroy();
            while (runTasks() > 0) {
                // channels closing submit their last events
            }
            handler.destroy();
            while (runTasks() > 0) {
                // and the handler's
            }
        } catch (Throwable t) {
            LOG.warn("{}: shutting down the I/O handler failed", helper.getName(), t);
        } finally {
            state.set(TERMINATED);
            terminationFuture.trySuccess(null);
        }
    }

    // ---- Netty's EventLoop -----------------------------------------------------------------------

    @Override
    public boolean inEventLoop(Thread thread) {
        return owner.get() == thread;
    }

    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        if (state.get() == TERMINATED) {
            throw new RejectedExecutionException("event loop terminated");
        }
        tasks.add(task);
        Thread o = owner.get();
        if (o == null) {
            LockSupport.unpark(helper);
        } else if (o != Thread.currentThread()) {
            handler.wakeup();
        }
    }

    @Override
    public ProgressLoop next() {
        return this;
    }

    @Override
    public IoEventLoopGroup parent() {
        return null;
    }

    @Override
    public ChannelFuture register(Channel channel) {
        return register(new DefaultChannelPromise(channel, this));
    }

    @Override
    public ChannelFuture register(ChannelPromise promise) {
        promise.channel().unsafe().register(this, promise);
        return promise;
    }

    @Deprecated
    @Override
    public ChannelFuture register(Channel channel, ChannelPromise promise) {
        channel.unsafe().register(this, promise);
        return promise;
    }

    @Override
    public Future<IoRegistration> register(IoHandle handle) {
        Promise<IoRegistration> promise = newPromise();
        if (inEventLoop()) {
            registerNow(handle, promise);
        } else {
            execute(() -> registerNow(handle, promise));
        }
        return promise;
    }

    private void registerNow(IoHandle handle, Promise<IoRegistration> promise) {
        try {
            promise.setSuccess(handler.register(handle));
        } catch (Exception e) {
            promise.setFailure(e);
        }
    }

    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
        return handler.isCompatible(handleType);
    }

    @Override
    public boolean isIoType(Class<? extends IoHandler> handlerType) {
        return handler.getClass().equals(handlerType);
    }

    /** Stops at once (no quiet period): the helper closes every channel and destroys the handler. */
    @Override
    public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
        shutdown();
        return terminationFuture;
    }

    @Deprecated
    @Override
    public void shutdown() {
        if (state.compareAndSet(STARTED, SHUTTING_DOWN)) {
            handler.wakeup();
            LockSupport.unpark(helper);
        }
    }

    @Override
    public Future<?> terminationFuture() {
        return terminationFuture;
    }

    @Override
    public boolean isShuttingDown() {
        return state.get() != STARTED;
    }

    @Override
    public boolean isShutdown() {
        return state.get() == TERMINATED;
    }

    @Override
    public boolean isTerminated() {
        return state.get() == TERMINATED;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return terminationFuture.await(timeout, unit);
    }
}
