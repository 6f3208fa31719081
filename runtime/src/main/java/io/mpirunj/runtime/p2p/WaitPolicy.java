package io.mpirunj.runtime.p2p;

import io.mpirunj.runtime.NanoClock;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.transport.TransportProgress;

/**
 * How threads wait for the requests of one engine: spin for {@link #spinNanos}, then yield the core
 * until {@link #yieldNanos} have passed, then park until woken, all timed by the engine's clock.
 *
 * <p>When this host's ranks outnumber its cores, a spinning waiter steals the core from the very
 * thread it waits for (a peer rank, or an event loop), so the waiter does not spin at all: it yields
 * at once, as Open MPI does with {@code mpi_yield_when_idle}, for as long as its transport says (not
 * at all over sockets, where it blocks in the kernel; 20 µs between rank threads of one JVM), then
 * parks. With free cores a short spin pays off: the completing thread runs elsewhere at that moment.
 *
 * @param drivePollNanos see {@link #DRIVE_POLL_NANOS_PROP}
 * @param engine the engine whose progress hooks (see {@link ProgressHook}) waiters run; null if none can be
 *     registered
 * @param io the engine's transport, when waiters drive its I/O themselves; else null (they park until woken)
 */
public record WaitPolicy(NanoClock clock, long spinNanos, long yieldNanos, long drivePollNanos, P2pEngine engine,
        TransportProgress io) {
    /** Pure spinning before the first yield, overriding the transport's choice; {@code -Dmpirunj.p2p.spinNanos}. */
    static final String SPIN_NANOS_PROP = "mpirunj.p2p.spinNanos";
    /**
     * Total time (spin included) before parking; {@code -Dmpirunj.p2p.yieldNanos}. Default 100 µs, but
     * the transport's {@link io.mpirunj.runtime.transport.Transport#crowdedYieldNanos} when ranks
     * outnumber cores: 0 for sockets, where a yielding waiter stays runnable, so every waiting rank of the
     * host competed for the cores with the ranks that had work (np 8 on 2 cores, ioThreads 2, bcast 1 B:
     * 792 µs yielding first, 505 µs parking at once); 20 µs for ranks as threads, where the yield hands
     * the core to the very peer thread the waiter needs and parking cost a futex wake-up per message.
     */
    static final String YIELD_NANOS_PROP = "mpirunj.p2p.yieldNanos";
    static final long YIELD_NANOS_DEFAULT = 100_000;
    /**
     * How long a waiter that drives its transport polls (spinning, then yielding) after its last turn
     * that handled I/O before it blocks in the kernel; {@code -Dmpirunj.p2p.drivePollNanos}. Default: as
     * long as a parked waiter yields, but 0 when ranks outnumber cores: the kernel wakes the blocked
     * waiter when its data arrives, and its core serves the other ranks meanwhile (yielding kept it
     * runnable and cost them the core; bcast np 8 on 2 cores, 1 B: median 270-420 µs blocking at once,
     * 1.3-5.2 ms yielding first). Not longer where cores are free: a rank that polls while the peer it
     * waits for shares its core (the scheduler does not keep two ranks apart when other work runs)
     * delays that peer, and 1 ms budgets made a 1 MiB ping-pong under background load slower, not faster.
     */
    static final String DRIVE_POLL_NANOS_PROP = "mpirunj.p2p.drivePollNanos";

    /** How often a parked waiter wakes to run progress hooks, when there are any. */
    static final long PROGRESS_PARK_NANOS = 1_000_000;

    /**
     * This policy, whose waiters also run {@code engine}'s progress hooks and, if {@code io} is not
     * null, drive that transport's I/O while they wait.
     */
    WaitPolicy drivingProgressOf(P2pEngine engine, TransportProgress io) {
        return new WaitPolicy(clock, spinNanos, yieldNanos, drivePollNanos, engine, io);
    }

    /** Wakes a waiter blocked in the transport (another thread completed what it waits for). */
    void wakeDriver() {
        if (io != null) {
            io.wakeup();
        }
    }

    /** Runs the progress hooks, if any; cheap when there are none. */
    void progress() {
        if (engine != null) {
            engine.progress();
        }
    }

    /** True if a parked waiter must wake now and then to run progress hooks. */
    boolean hasProgressHooks() {
        return engine != null && engine.hasProgressHooks();
    }

    /** {@link #of(NanoClock, long, long, int, int)} for a transport whose crowded waiters do not yield. */
    public static WaitPolicy of(NanoClock clock, long transportSpinNanos, int localRanks, int cores) {
        return of(clock, transportSpinNanos, 0, localRanks, cores);
    }

    /**
     * The policy for an engine whose transport asks for {@code transportSpinNanos} of spinning, and for
     * {@code crowdedYieldNanos} of yielding when ranks outnumber cores, on a host where {@code localRanks}
     * ranks (0 if unknown) share {@code cores} cores. The system properties, when set, win.
     */
    public static WaitPolicy of(NanoClock clock, long transportSpinNanos, long crowdedYieldNanos, int localRanks,
            int cores) {
        boolean oversubscribed = localRanks > cores;
        long spin = RuntimeConfig.longProperty(SPIN_NANOS_PROP, oversubscribed ? 0 : transportSpinNanos, 0);
        long yield = RuntimeConfig.longProperty(YIELD_NANOS_PROP, oversubscribed ? crowdedYieldNanos : YIELD_NANOS_DEFAULT, 0);
        long drivePoll = RuntimeConfig.longProperty(DRIVE_POLL_NANOS_PROP, yield, 0);
        return new WaitPolicy(clock, spin, yield, drivePoll, null, null);
    }

    /**
     * For requests that other threads complete (background or schedule-driven collectives), not an
     * engine's transport: a 2 µs spin, then yields, then park, on the system clock.
     */
    public static WaitPolicy standalone() {
        return Standalone.POLICY;
    }

    /** Made once, at first use (every background collective asks): the policy is immutable. */
    private static final class Standalone {
        static final WaitPolicy POLICY = of(NanoClock.SYSTEM, 2_000, 0, Runtime.getRuntime().availableProcessors());
    }

    /**
     * How long a thread waiting on several requests at once may poll them (yielding between turns)
     * before it blocks in {@link io.mpirunj.Request#waitAny}: as long as a single request's waiter
     * polls, so 0 when ranks outnumber cores.
     */
    public long pollNanos() {
        return io != null ? drivePollNanos : yieldNanos;
    }

    public boolean spins() {
        return spinNanos > 0;
    }

    @Override
    public String toString() {
        return "WaitPolicy[spin " + spinNanos + " ns, yield until " + yieldNanos + " ns, then "
                + (io != null ? "park; driving the transport: poll " + drivePollNanos + " ns, then block in it]" : "park]");
    }
}
