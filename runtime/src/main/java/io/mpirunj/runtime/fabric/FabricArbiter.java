package io.mpirunj.runtime.fabric;

import io.mpirunj.fabric.wormhole.WormholeNetwork;
import io.mpirunj.fabric.wormhole.WormholeNetwork.FabricRun;
import io.mpirunj.runtime.NanoClock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

/**
 * The online arbiter of an emulated fabric: one wormhole engine run ({@link WormholeNetwork#open()})
 * driven by the wall clock instead of by a schedule. Every message a rank sends is injected when it is
 * sent (model time = wall time since the arbiter started / the time scale), after the sender's previous
 * sends (one-port: the sender is busy t_send per message; more ports: the earliest free one), over the
 * path from the sender's node to the receiver's. The engine reserves the path's channels in its global
 * table and makes messages that share channels wait for each other; the arbiter hands a message to its
 * receiver when the engine delivers it (tail arrival + t_recv), plus the faults' delays, or reports it
 * lost when it crosses a dropped link.
 *
 * <p>The engine is advanced lazily, never past the wall clock plus the shortest possible t_send: no
 * message injected later can request a channel earlier than that, so what the engine has decided is
 * final. Callbacks run on the arbiter's own thread, outside its lock. Thread-safe.
 */
public final class FabricArbiter implements MessageArbiter {

    /** What the arbiter tells the sender's side about one message. */
    public interface Outcome {
        /** The message reached its receiver (model time {@code at}). */
        void delivered(double at);

        /** The message was lost on a dropped link. */
        void lost(LinkFailedException cause);
    }

    private final WormholeNetwork network;
    private final int[] nodeOf;
    private final double nanosPerUnit;
    private final NanoClock clock;
    /** Wall nanos at model time 0, shared with the ranks' clocks; moves forward when the host falls behind. */
    private final ModelOrigin origin;
    /** No send may start before this: the engine has already decided up to here (+ lookahead). */
    private double floor;
    private double worstLateness;
    private final FabricFaults faults;
    private final Random jitter;
    private final double lookahead;
    private final int ports;
    private final double[] portFree;
    private final FabricRun run;
    private final Map<Integer, Pending> pending = new HashMap<>();
    /** (time, seq) of outcomes decided but not yet due. */
    private final PriorityQueue<Due> due = new PriorityQueue<>();
    private final Thread thread;
    private int nextMessage;
    private long seq;
    private volatile boolean closed;

    private record Pending(int src, int dst, long bytes, double start, Outcome outcome) {
    }

    private record Due(double time, long seq, Runnable action) implements Comparable<Due> {
        @Override
        public int compareTo(Due o) {
            return time != o.time ? Double.compare(time, o.time) : Long.compare(seq, o.seq);
        }
    }

    /**
     * @param nodeOf        world rank -> fabric node
     * @param microsPerUnit wall-clock microseconds per model time unit (the time scale)
     */
    public FabricArbiter(WormholeNetwork network, int[] nodeOf, double microsPerUnit, FabricFaults faults,
            NanoClock clock) {
        this(network, nodeOf, microsPerUnit, faults, clock, ModelOrigin.inJvm(clock.nanoTime()));
    }

    /** As above, with model time 0 at {@code origin} (shared with the ranks' clocks, see {@link ModelOrigin}). */
    FabricArbiter(WormholeNetwork network, int[] nodeOf, double microsPerUnit, FabricFaults faults,
            NanoClock clock, ModelOrigin origin) {
        if (!(microsPerUnit > 0) || Double.isInfinite(microsPerUnit)) {
            throw new IllegalArgumentException("time scale " + microsPerUnit + " (expected: microseconds per model unit > 0)");
        }
        this.network = network;
        this.nodeOf = nodeOf.clone();
        this.nanosPerUnit = microsPerUnit * 1000;
        this.clock = clock;
        this.faults = faults;
        this.jitter = new Random(faults.jitterSeed());
        this.lookahead = network.flitLevel() ? network.params().tSend(0) : 0;
        this.ports = network.ports();
        this.portFree = new double[network.topology().nodes() * ports];
        this.run = network.open();
        this.origin = origin;
        this.thread = new Thread(this::loop, "fabric-arbiter");
        thread.setDaemon(true);
        thread.start();
    }

    public WormholeNetwork network() {
        return network;
    }

    /** The fabric node of world rank {@code rank}. */
    public int nodeOf(int rank) {
        return nodeOf[rank];
    }

    /** Model time now (the arbiter's view; it may step back when the arbiter catches up, see {@link #catchUp}). */
    public double now() {
        return (clock.nanoTime() - origin.get()) / nanosPerUnit;
    }

    /**
     * The ranks' clock (so {@code Comm.wtime} measures model time): model time in nanoseconds of the
     * time scale (units x ns per unit), monotonic per calling thread.
     */
    public NanoClock clock() {
        return origin.modelClock(clock);
    }

    /** Model time 0 (shared with the ranks' clocks). */
    ModelOrigin origin() {
        return origin;
    }

    /** The worst lateness (model units) the arbiter has caught up from so far: how loaded the host was. */
    public synchronized double worstLateness() {
        return worstLateness;
    }

    /**
     * The arbiter woke {@code lateness} units after an outcome was due (a loaded host): the model clock
     * steps back by that much, so a rank that reacts to the outcome at once is stamped as if it had come
     * on time and the host's delay is not charged to the model (lock held). Engine time already decided
     * stays: sends are never stamped before {@link #floor}.
     */
    private void catchUp(double lateness) {
        if (lateness > 0) {
            worstLateness = Math.max(worstLateness, lateness);
            origin.advanceTo(origin.get() + (long) (lateness * nanosPerUnit));
        }
    }

    /** Wall-clock microseconds per model unit. */
    public double microsPerUnit() {
        return nanosPerUnit / 1000;
    }

    /**
     * Sends a {@code bytes}-byte message from world rank {@code src} to {@code dst} through the fabric
     * now; {@code outcome} hears when it arrives or is lost.
     */
    @Override
    public void submit(int src, int dst, long bytes, Outcome outcome) {
        submit(src, dst, bytes, false, Long.MIN_VALUE, outcome);
    }

    /**
     * As {@link #submit(int, int, long, Outcome)} for a message its sender sent at {@code sentAt} on its
     * own clock ({@link #clock()}: model time x the scale, ns; {@code Long.MIN_VALUE}: now). A rank
     * process's message reaches the arbiter service some time after it was sent, and that hop is not the
     * model's; and a sender's clock can stand ahead of model time after a pause (see {@link ModelOrigin}),
     * and its message must not take less than the model's time on the sender's clock. Either way the
     * message starts no earlier than what the engine has already decided.
     */
    @Override
    public void submit(int src, int dst, long bytes, boolean data, long sentAt, Outcome outcome) {
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("the fabric arbiter is closed");
            }
            double now = sentAt == Long.MIN_VALUE ? now() : sentAt / nanosPerUnit;
            int s = nodeOf[src];
            int port = s * ports;
            for (int q = port + 1; q < (s + 1) * ports; q++) {
                if (portFree[q] < portFree[port]) {
                    port = q;
                }
            }
            double start = Math.max(Math.max(now, floor), portFree[port]);
            portFree[port] = start + network.sendGap(s, nodeOf[dst], bytes);
            int id = nextMessage++;
            pending.put(id, new Pending(src, dst, bytes, start, outcome));
            run.inject(id, s, nodeOf[dst], bytes, start);
        }
        LockSupport.unpark(thread);
    }

    private void loop() {
        try {
            serve();
        } catch (RuntimeException | Error e) {
            // Never leave a sender or receiver waiting for a verdict that will not come.
            List<Pending> victims;
            synchronized (this) {
                closed = true;
                victims = new ArrayList<>(pending.values());
                pending.clear();
            }
            LinkFailedException cause = new LinkFailedException("(arbiter failed: " + e + ")", now(), -1, -1);
            for (Pending p : victims) {
                p.outcome.lost(cause);
            }
            throw e;
        }
    }

    private void serve() {
        List<Runnable> ready = new ArrayList<>();
        while (!closed) {
            double wake;
            synchronized (this) {
                double now = now();
                double lateness = 0;
                double latest = Double.NEGATIVE_INFINITY;
                while (!due.isEmpty() && due.peek().time <= now) {
                    Due d = due.poll();
                    lateness = Math.max(lateness, now - d.time);
                    latest = d.time;
                    ready.add(d.action);
                }
                catchUp(Math.min(lateness, now - floor));
                if (!ready.isEmpty()) {
                    origin.delivering((long) Math.ceil(latest * nanosPerUnit));
                }
                now = now();
                advance(now);
                wake = Math.min(due.isEmpty() ? Double.POSITIVE_INFINITY : due.peek().time,
                        Math.max(run.nextTime() - lookahead, now));
            }
            for (Runnable r : ready) {
                r.run();
            }
            if (!ready.isEmpty()) {
                ready.clear();
                continue;
            }
            if (wake == Double.POSITIVE_INFINITY) {
                LockSupport.park(this);
            } else {
                long waitNanos = (long) ((wake - now()) * nanosPerUnit);
                if (waitNanos > 0) {
                    LockSupport.parkNanos(this, waitNanos);
                }
            }
        }
    }

    /** Runs the engine up to {@code now} + lookahead and turns its deliveries into due outcomes (lock held). */
    private void advance(double now) {
        double horizon = now + lookahead;
        if (run.nextTime() < horizon) {
            // the engine decides up to the horizon: a later send must not request a channel before it.
            // (Only then: a floor that moved with every wake-up would charge the arbiter's own lag.)
            floor = Math.max(floor, now);
        }
        while (run.nextDelivery(horizon) < horizon) {
            int id = run.takeDelivery();
            Pending p = pending.remove(id);
            double at = run.trace(id).delivery();
            decide(id, p, at);
        }
    }

    private void decide(int id, Pending p, double at) {
        int[] path = run.path(id);
        double extra = 0;
        FabricFaults.LinkFault dropped = null;
        for (FabricFaults.LinkFault f : faults.links()) {
            if (!f.crossedBy(path)) {
                continue;
            }
            if (f.drops() && at > f.dropAt()) {
                dropped = f;
            } else if (f.slowdown() > 1) {
                extra += (f.slowdown() - 1) * netTime(path, p.bytes);
            }
        }
        if (faults.jitterSigma() > 0) {
            extra += Math.abs(jitter.nextGaussian()) * faults.jitterSigma();
        }
        if (dropped != null) {
            FabricFaults.LinkFault link = dropped;
            double when = Math.max(link.dropAt(), p.start);
            LinkFailedException cause = new LinkFailedException(link.label(), link.dropAt(), p.src, p.dst, id);
            due.add(new Due(when, seq++, () -> p.outcome.lost(cause)));
        } else {
            double when = at + extra;
            due.add(new Due(when, seq++, () -> p.outcome.delivered(when)));
        }
    }

    /**
     * Uncontended network time of a message over {@code path} (slowed links scale it): flit level,
     * t_net over its channels (injection, links, ejection); a cost model, t_end - t_hold.
     */
    private double netTime(int[] path, long bytes) {
        if (network.flitLevel()) {
            return network.params().tNet(path.length + 1, bytes);
        }
        int s = path[0];
        int d = path[path.length - 1];
        return Math.max(0, network.costModel().tEnd(s, d, bytes) - network.costModel().tHold(s, d, bytes));
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
    }
}
