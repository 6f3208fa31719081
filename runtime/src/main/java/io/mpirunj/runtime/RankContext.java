package io.mpirunj.runtime;

import io.mpirunj.AbortedException;
import io.mpirunj.Comm;
import io.mpirunj.MpiException;
import io.mpirunj.runtime.comm.CallTracker;
import io.mpirunj.runtime.comm.CommImpl;
import io.mpirunj.runtime.p2p.P2pEngine;
import io.mpirunj.runtime.p2p.WaitPolicy;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import io.mpirunj.runtime.transport.Transport;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.function.Supplier;

/**
 * Everything one rank owns: its transport, point-to-point engine, world communicator, collective
 * registry and the job around it. In a process there is one (set by {@link #setProcessContext});
 * with ranks as threads each rank thread (and the threads it starts) sees its own through
 * {@link #bindToCurrentThread}.
 */
public final class RankContext {
    private static final InheritableThreadLocal<RankContext> THREAD_CONTEXT = new InheritableThreadLocal<>();
    private static volatile RankContext processContext;

    private final int rank;
    private final int size;
    private final Transport transport;
    private final JobControl control;
    private final RuntimeConfig config;
    /** Makes {@link #registry} when it is first needed; null once it has. */
    private Supplier<CollectiveRegistry> registrySource;
    private volatile CollectiveRegistry registry;
    private final P2pEngine engine;
    private final CallTracker calls = new CallTracker();
    /** {@code --coll-report}'s counts, or null when the report is off. */
    private final io.mpirunj.runtime.comm.CollReport collReport;
    /** {@code auto}'s live trials of this rank, shared by a communicator and its views. */
    private final io.mpirunj.runtime.comm.AutoTrials autoTrials = new io.mpirunj.runtime.comm.AutoTrials();
    private final CommImpl world;
    /** Next free communicator context id on this rank; agreed collectively when communicators are made. */
    private final AtomicInteger nextContextId = new AtomicInteger(CommImpl.WORLD_CONTEXT + 2);
    private final AtomicBoolean initialized = new AtomicBoolean();
    private final AtomicBoolean finished = new AtomicBoolean();
    /** Per communicator context, the collective calls {@code --check-collectives} has checked. */
    private final Map<Integer, AtomicLong> checkedCalls = new ConcurrentHashMap<>();

    public RankContext(int rank, int size, Transport transport, JobControl control, RuntimeConfig config,
            CollectiveRegistry registry) {
        this(rank, size, transport, control, config, (Supplier<CollectiveRegistry>) null);
        this.registry = java.util.Objects.requireNonNull(registry, "registry");
    }

    /**
     * A rank whose collective registry is made by {@code registry} when the rank first needs it (its
     * first collective): finding and building the algorithm catalogue, the schedule cache and their
     * classes is about a sixth of a rank process's start-up CPU, and a program may run no collective at all.
     */
    public RankContext(int rank, int size, Transport transport, JobControl control, RuntimeConfig config,
            Supplier<CollectiveRegistry> registry) {
        if (size < 1 || rank < 0 || rank >= size) {
            throw new IllegalArgumentException("rank=" + rank + ", size=" + size + " (expected: 0 <= rank < size)");
        }
        this.rank = rank;
        this.size = size;
        this.transport = transport;
        this.control = control;
        this.config = config;
        this.registrySource = registry;
        this.collReport = config.collReport() ? new io.mpirunj.runtime.comm.CollReport() : null;
        this.engine = new P2pEngine(rank, size, transport, config.eagerLimitBytes(), config.eagerCreditBytes(),
                WaitPolicy.of(config.clock(), transport.spinBeforeYieldNanos(), transport.crowdedYieldNanos(),
                        config.localRanks(), Runtime.getRuntime().availableProcessors()));
        transport.start(engine);
        this.world = CommImpl.world(this);
    }

    /** The context of the calling thread's rank, or the process's, or null outside any job. */
    public static RankContext current() {
        RankContext c = THREAD_CONTEXT.get();
        return c != null ? c : processContext;
    }

    /** Makes {@code ctx} the rank of the calling thread and the threads it starts (ranks as threads). */
    public static void bindToCurrentThread(RankContext ctx) {
        if (ctx == null) {
            THREAD_CONTEXT.remove();
        } else {
            THREAD_CONTEXT.set(ctx);
        }
    }

    /** Makes {@code ctx} the rank of this whole process; null clears it. */
    public static synchronized void setProcessContext(RankContext ctx) {
        processContext = ctx;
    }

    public int rank() {
        return rank;
    }

    public int size() {
        return size;
    }

    public Comm world() {
        return world;
    }

    public P2pEngine engine() {
        return engine;
    }

    public Transport transport() {
        return transport;
    }

    public JobControl control() {
        return control;
    }

    public RuntimeConfig config() {
        return config;
    }

    /** {@code auto}'s live trials of this rank ({@code --coll-tune}). */
    public io.mpirunj.runtime.comm.AutoTrials autoTrials() {
        return autoTrials;
    }

    /** The counts of {@code --coll-report}, or null when it is off. */
    public io.mpirunj.runtime.comm.CollReport collReport() {
        return collReport;
    }

    /** The rank's collective registry (made now if this is its first use). */
    public CollectiveRegistry registry() {
        CollectiveRegistry r = registry;
        if (r != null) {
            return r;
        }
        synchronized (this) {
            if (registry == null) {
                registry = registrySource.get();
                registrySource = null;
            }
            return registry;
        }
    }

    /** This rank's next free context id (what it proposes when a communicator is created). */
    public int peekContextId() {
        return nextContextId.get();
    }

    /** Records that an agreed context id pair {@code [id, id + 2)} is taken. */
    public void takeContextIds(int id) {
        nextContextId.getAndUpdate(cur -> Math.max(cur, id + 2));
    }

    /** The number of the collective call {@code --check-collectives} checks next on {@code context}, from 1. */
    public long nextCheckedCall(int context) {
        return checkedCalls.computeIfAbsent(context, c -> new AtomicLong()).incrementAndGet();
    }

    /** What this rank is doing: its current blocking MPI call, for reports. */
    public CallTracker calls() {
        return calls;
    }

    /**
     * One line saying what this rank is doing: the MPI call it is blocked in (with peer or root,
     * tag, communicator, how long, and the user's line that made it), or where its main thread is.
     */
    public String describeActivity() {
        if (finished.get() && !calls.inCall()) {
            return "finished (left the job with Mpi.finish)";
        }
        return calls.describe();
    }

    /** Marks the rank initialized (the calling thread is its main thread); false if it already was. */
    public boolean markInitialized() {
        boolean first = initialized.compareAndSet(false, true);
        if (first) {
            calls.setMainThread(Thread.currentThread());
        }
        return first;
    }

    public boolean isInitialized() {
        return initialized.get();
    }

    public boolean isFinished() {
        return finished.get();
    }

    /**
     * MPI_Finalize: waits until every rank has arrived (so no peer sees this rank's connections
     * close while it still needs them), then closes the transport. Idempotent.
     */
    public void finish() {
        if (!finished.compareAndSet(false, true)) {
            return;
        }
        boolean fenced = false;
        List<P2pEngine.Unreceived> unreceived = List.of();
        engine.enterFinish();
        try {
            world.printCollReport();
            world.finishBarrier();
            fenced = true;
        } finally {
            try {
                transport.close();
            } finally {
                if (fenced) { // every rank's collectives have ended: a message left was sent by a call none here matched
                    unreceived = engine.unreceivedCollectiveMessages();
                }
                engine.close();
            }
        }
        if (!unreceived.isEmpty() && !knowsOfAFailure()) {
            throw new MpiException(unmatchedCollectives(rank, unreceived));
        }
    }

    /**
     * Why {@code unreceived} fails the rank: messages collectives sent to it that none of its collectives received.
     * Exact with a job fence (Mpi.finish waited for every message it counted); with ranks as threads, a message an
     * emulated fabric still holds back is not seen.
     */
    static String unmatchedCollectives(int rank, List<P2pEngine.Unreceived> unreceived) {
        SortedSet<Integer> sources = new TreeSet<>();
        int onWorld = 0;
        long bytes = 0;
        for (P2pEngine.Unreceived u : unreceived) {
            sources.add(u.sourceWorld());
            onWorld += u.context() == CommImpl.WORLD_CONTEXT + 1 ? 1 : 0;
            bytes += u.bytes();
        }
        int n = unreceived.size();
        String from = (sources.size() == 1 ? "rank " : "ranks ") + sources.stream().limit(8).map(String::valueOf)
                .collect(Collectors.joining(", ")) + (sources.size() > 8 ? ", ..." : "");
        String where = onWorld == 0 ? "a communicator made by split or dup"
                : onWorld == n ? "the world communicator" : "the world communicator and others";
        return "rank " + rank + ": Mpi.finish: " + n + (n == 1 ? " message" : " messages") + " (" + bytes
                + " bytes) that collectives of " + from + " sent to rank " + rank + " on " + where + " "
                + (n == 1 ? "was" : "were") + " received by none of rank " + rank + "'s collectives: the ranks'"
                + " collective calls did not match (a different root, count or operation, or a collective not every"
                + " rank called, as when Mpi.finish in a finally block is reached while an exception passes through it),"
                + " so a collective on rank " + rank + " may have received another call's data";
    }

    /** The launcher (or a transport) reports that {@code worldRank} died: fail what depends on it. */
    public void onRankFailed(int worldRank, Throwable cause) {
        engine.onPeerFailed(worldRank, cause);
    }

    /** The job is being aborted: fail every pending and later operation on this rank. */
    public void onJobAborted(int exitCode, String reason) {
        engine.failAll(new AbortedException(exitCode, "job aborted: " + reason));
    }

    /**
     * Whether this rank knows of another rank's failure (from the launcher or from its connection) or of an abort:
     * the job is failing already.
     */
    public boolean knowsOfAFailure() {
        return engine.anyPeerFailed() || abortExitCode() >= 0;
    }

    /** The exit code of the job's abort, if this rank was told of one, else -1. */
    public int abortExitCode() {
        return engine.abortCause() instanceof AbortedException a ? a.exitCode() : -1;
    }
}
