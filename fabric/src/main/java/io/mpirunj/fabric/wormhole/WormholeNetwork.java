package io.mpirunj.fabric.wormhole;

import io.mpirunj.fabric.model.Contention;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.NetworkModel;
import io.mpirunj.fabric.topology.Topology;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;

/**
 * A wormhole-switched network on a {@link Topology}: the seam's {@link NetworkModel} with routes,
 * channels and contention. Two timing modes share routes, channels and reports.
 *
 * <h2>Channels and paths</h2>
 * A message from node s to node d follows the topology's route (dimension-ordered on meshes;
 * or an explicit path, {@link FabricRun#inject(int, int, int, long, double, int[])}) and uses
 * k = hops + 2 directed channels: s's injection channel (node -> router), the hops' link
 * channels, d's ejection channel (router -> node); paper 000 charges c_d on each
 * ("node to router, or between two routers"). One-port and all-port: see {@link NodeModel}.
 *
 * <h2>Flit mode ({@link WormholeParams})</h2>
 * The three phases are sequential, as the closed form implies. A send starting at s first runs
 * the sender's software for t_send = ss + m·sd; at T0 = s + t_send the header requests the
 * injection channel. The header takes cd to cross each channel; arriving at the end of channel
 * i it requests channel i+1; a busy channel makes it wait in that channel's FIFO queue (ties:
 * lower message id first). The worm is rigid (one-flit buffers, flits in lock-step): while the
 * header waits, the whole worm stands still. Writing a_i for the time the header starts crossing
 * channel i (i = 1..k, and a_i = a_k + (i-k)·cd for i &gt; k, as the destination absorbs a flit
 * per cd), <b>channel i is held during [a_i, a_{i+m})</b>: from the header entering it until the
 * tail leaves it. The tail reaches the destination at a_k + m·cd; the receiver's software then
 * takes t_recv = rs + m·rd (messages to one node are processed one at a time per port, in tail
 * order) and the message is delivered. Without contention a_i = T0 + (i-1)·cd, so
 * <pre>
 *   channel i held during [s + t_send + (i-1)·cd, s + t_send + (i-1+m)·cd)    (length m·cd)
 *   tail at s + t_send + (k-1+m)·cd = s + t_send + t_net
 *   delivery at s + ss + rs + (k-1)·cd + m·(sd + cd + rd) = s + t_end         (exactly)
 * </pre>
 * and a node's next send, t_hold = t_send later, requests its injection channel t_send after
 * the previous worm did, by when that worm has left it if m·cd &lt;= t_send (e.g. sd &gt;= cd).
 * {@link #sendGap} is t_send; {@link #receiveGap} is 0 because the engine itself serialises
 * receive software.
 *
 * <h2>Cost-model mode ({@link CostModel})</h2>
 * Timing is the model's: delivery at s + t_end, sends and receives t_hold apart, nothing ever
 * waits. The fabric still routes every message, and <b>a message started at s occupies every
 * channel of its path during [s, s + t_hold)</b> — the reading in paper 000's proof of theorem
 * 3.2 ("the output port of u, and the path's channels from u onwards, are free again at
 * t0 + t_hold"). Two messages whose occupancies overlap on a channel are reported as a
 * contention event (from the later start to the earlier one's end); the message's
 * {@code waited} is its longest such overlap. Under this rule OPT-mesh is contention-free
 * (consecutive sends of one node are t_hold apart; concurrent senders' paths are disjoint by the
 * chain property).
 *
 * <p>Immutable; every {@link #open()} is an independent run (not thread-safe itself).
 */
public final class WormholeNetwork implements NetworkModel {

    private final Topology topology;
    private final WormholeParams params;
    private final CostModel model;
    private final NodeModel nodeModel;
    private final int portsPerNode;

    private WormholeNetwork(Topology topology, WormholeParams params, CostModel model, NodeModel nodeModel) {
        this.topology = Objects.requireNonNull(topology, "topology");
        this.params = params;
        this.model = model;
        this.nodeModel = Objects.requireNonNull(nodeModel, "nodeModel");
        this.portsPerNode = nodeModel == NodeModel.ALL_PORT ? topology.degree() : 1;
    }

    /** Flit-level timing with contention. */
    public static WormholeNetwork flit(Topology topology, WormholeParams params, NodeModel nodeModel) {
        return new WormholeNetwork(topology, Objects.requireNonNull(params, "params"), null, nodeModel);
    }

    /** The cost model's timing; the fabric routes and reports overlapping channel occupancy. */
    public static WormholeNetwork model(Topology topology, CostModel model, NodeModel nodeModel) {
        return new WormholeNetwork(topology, null, Objects.requireNonNull(model, "model"), nodeModel);
    }

    public Topology topology() {
        return topology;
    }

    /** The flit parameters, or null in cost-model mode. */
    public WormholeParams params() {
        return params;
    }

    /** The cost model, or null in flit mode. */
    public CostModel costModel() {
        return model;
    }

    public boolean flitLevel() {
        return params != null;
    }

    @Override
    public double sendGap(int src, int dst, long bytes) {
        return params != null ? params.tSend(bytes) : model.tHold(src, dst, bytes);
    }

    @Override
    public double receiveGap(int src, int dst, long bytes) {
        return params != null ? 0 : model.tHold(src, dst, bytes);
    }

    @Override
    public int ports() {
        if (nodeModel == NodeModel.ALL_PORT) {
            return topology.degree();
        }
        return params != null ? 1 : model.ports();
    }

    @Override
    public FabricRun open() {
        return params != null ? new FlitRun() : new OccupancyRun();
    }

    @Override
    public String describe() {
        return topology + " " + (params != null ? params.toString() : model.toString()) + " " + nodeModel;
    }

    @Override
    public String toString() {
        return describe();
    }

    /** Readable channel name: {@code 3/2->4/2}, {@code inj 3/2}, {@code ej 4/4} (all-port: {@code inj 3/2#1}). */
    public String channelLabel(int channel) {
        int links = topology.linkChannels();
        if (channel < links) {
            return topology.channelLabel(channel);
        }
        int rest = channel - links;
        boolean injection = rest < topology.nodes() * portsPerNode;
        if (!injection) {
            rest -= topology.nodes() * portsPerNode;
        }
        String name = (injection ? "inj " : "ej ") + topology.label(rest / portsPerNode);
        return portsPerNode == 1 ? name : name + "#" + rest % portsPerNode;
    }

    /** The full channel path of a node path: injection, links, ejection. */
    int[] channelPath(int[] nodes) {
        int src = nodes[0];
        int dst = nodes[nodes.length - 1];
        int[] links = topology.channels(nodes, src, dst);
        int[] all = new int[links.length + 2];
        int base = topology.linkChannels();
        int injPort = 0;
        int ejPort = 0;
        if (portsPerNode > 1 && nodes.length > 1) {
            injPort = topology.direction(src, nodes[1]);
            ejPort = topology.direction(dst, nodes[nodes.length - 2]);
            if (ejPort < 0) {
                ejPort = 0;
            }
        }
        all[0] = base + src * portsPerNode + injPort;
        System.arraycopy(links, 0, all, 1, links.length);
        all[all.length - 1] = base + topology.nodes() * portsPerNode + dst * portsPerNode + ejPort;
        return all;
    }

    /** One channel's occupancy by one message. */
    public record Occupancy(int channel, int message, double from, double until) {
    }

    /**
     * The in-flight state of one simulation; also the place to read what happened (traces,
     * occupancy, contention) once the simulation is over.
     */
    public abstract class FabricRun implements NetworkModel.Run {
        final List<Worm> worms = new ArrayList<>();
        final List<Contention> contentions = new ArrayList<>();
        final List<Occupancy> occupancy = new ArrayList<>();
        final PriorityQueue<double[]> deliveries = new PriorityQueue<>(
                (a, b) -> a[0] != b[0] ? Double.compare(a[0], b[0]) : Double.compare(a[1], b[1]));

        @Override
        public final void inject(int message, int src, int dst, long bytes, double start) {
            inject(message, src, dst, bytes, start, topology.route(src, dst));
        }

        /** Injects a message that follows {@code path} (nodes from src to dst, both included). */
        public final void inject(int message, int src, int dst, long bytes, double start, int[] path) {
            if (message < 0 || (message < worms.size() && worms.get(message) != null)) {
                throw new IllegalArgumentException("message id " + message + " reused (expected: a new id >= 0)");
            }
            if (bytes < 0) {
                throw new IllegalArgumentException("bytes=" + bytes + " (expected: >= 0)");
            }
            int[] nodes = path.clone();
            long flits = params != null ? params.flits(bytes) : 0;
            Worm w = new Worm(message, src, dst, bytes, flits, nodes, channelPath(nodes), start);
            while (worms.size() <= message) {
                worms.add(null);
            }
            worms.set(message, w);
            admit(w);
        }

        abstract void admit(Worm w);

        /**
         * The time of the next thing this run will do (an internal event or a delivery not yet taken),
         * or +infinity. An online driver (the live fabric emulation) advances the run to the wall
         * clock with {@link #nextDelivery(double)} and sleeps until this time.
         */
        public double nextTime() {
            double[] head = deliveries.peek();
            return head == null ? Double.POSITIVE_INFINITY : head[0];
        }

        @Override
        public int takeDelivery() {
            double[] head = deliveries.poll();
            if (head == null) {
                throw new IllegalStateException("no message in flight");
            }
            return (int) head[1];
        }

        @Override
        public int[] path(int message) {
            return worm(message).nodes.clone();
        }

        @Override
        public double waited(int message) {
            return worm(message).waited;
        }

        @Override
        public List<Contention> contentions() {
            return List.copyOf(contentions);
        }

        /** Every channel occupancy interval recorded so far (flit mode: when released). */
        public List<Occupancy> occupancy() {
            return List.copyOf(occupancy);
        }

        /** What happened to message {@code message}. */
        public WormTrace trace(int message) {
            Worm w = worm(message);
            return new WormTrace(w.id, w.src, w.dst, w.bytes, w.flits, w.nodes.clone(), w.channels.clone(), w.start,
                    w.acquired.clone(), w.released.clone(), w.tail, w.delivery, w.waited);
        }

        /** The network this run belongs to. */
        public WormholeNetwork network() {
            return WormholeNetwork.this;
        }

        Worm worm(int message) {
            Worm w = message >= 0 && message < worms.size() ? worms.get(message) : null;
            if (w == null) {
                throw new IllegalArgumentException("unknown message id " + message);
            }
            return w;
        }

        void contention(Worm w, int blocker, int channel, double from, double until) {
            contentions.add(new Contention(w.id, blocker, channel, channelLabel(channel), from, until));
        }
    }

    static final class Worm {
        final int id;
        final int src;
        final int dst;
        final long bytes;
        final long flits;
        final int[] nodes;
        final int[] channels;
        final double start;
        final double[] acquired;
        final double[] released;
        double requestedAt = Double.NaN;
        int waitingIndex = -1;
        int blocker = -1;
        double tail = Double.NaN;
        double delivery = Double.NaN;
        double waited;

        Worm(int id, int src, int dst, long bytes, long flits, int[] nodes, int[] channels, double start) {
            this.id = id;
            this.src = src;
            this.dst = dst;
            this.bytes = bytes;
            this.flits = flits;
            this.nodes = nodes;
            this.channels = channels;
            this.start = start;
            this.acquired = new double[channels.length];
            this.released = new double[channels.length];
            Arrays.fill(acquired, Double.NaN);
            Arrays.fill(released, Double.NaN);
        }
    }

    /** The flit-level discrete-event engine (see the class comment for the timing). */
    final class FlitRun extends FabricRun {
        private static final int RELEASE = 0;
        private static final int TAIL = 1;
        private static final int REQUEST = 2;

        /** (time, kind, message, channel index); ordered by time, then kind, message, index. */
        private final PriorityQueue<double[]> events = new PriorityQueue<>(FlitRun::compare);
        private final Map<Integer, Integer> holder = new HashMap<>();
        private final Map<Integer, ArrayDeque<Worm>> waiting = new HashMap<>();
        private final double[] recvFree = new double[topology.nodes() * ports()];
        private final WormholeParams p = params;
        private int undelivered;

        private static int compare(double[] a, double[] b) {
            for (int i = 0; i < 4; i++) {
                int c = Double.compare(a[i], b[i]);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        }

        @Override
        void admit(Worm w) {
            undelivered++;
            push(w.start + p.tSend(w.bytes), REQUEST, w.id, 0);
        }

        private void push(double time, int kind, int message, int index) {
            events.add(new double[] {time, kind, message, index});
        }

        @Override
        public double nextDelivery() {
            return nextDelivery(Double.POSITIVE_INFINITY);
        }

        @Override
        public double nextDelivery(double horizon) {
            while (!events.isEmpty()) {
                double[] e = events.peek();
                double limit = deliveries.isEmpty() ? Double.POSITIVE_INFINITY : deliveries.peek()[0];
                if (!(e[0] <= limit && e[0] < horizon)) {
                    break;
                }
                events.poll();
                handle(e);
            }
            if (events.isEmpty() && deliveries.isEmpty() && undelivered > 0) {
                throw deadlock();
            }
            return deliveries.isEmpty() ? Double.POSITIVE_INFINITY : deliveries.peek()[0];
        }

        @Override
        public int takeDelivery() {
            if (deliveries.isEmpty()) {
                nextDelivery(Double.POSITIVE_INFINITY);
            }
            return super.takeDelivery();
        }

        @Override
        public double nextTime() {
            return events.isEmpty() ? super.nextTime() : Math.min(events.peek()[0], super.nextTime());
        }

        private void handle(double[] e) {
            double time = e[0];
            Worm w = worms.get((int) e[2]);
            int index = (int) e[3];
            switch ((int) e[1]) {
                case REQUEST -> request(w, index, time);
                case RELEASE -> release(w, index, time);
                default -> tail(w, time);
            }
        }

        private void request(Worm w, int index, double time) {
            int channel = w.channels[index];
            Integer owner = holder.get(channel);
            if (owner == null) {
                grant(w, index, time);
            } else {
                w.requestedAt = time;
                w.waitingIndex = index;
                w.blocker = owner;
                waiting.computeIfAbsent(channel, c -> new ArrayDeque<>()).add(w);
            }
        }

        private void grant(Worm w, int index, double time) {
            int channel = w.channels[index];
            if (!Double.isNaN(w.requestedAt)) {
                contention(w, w.blocker, channel, w.requestedAt, time);
                w.waited += time - w.requestedAt;
                w.requestedAt = Double.NaN;
                w.blocker = -1;
            }
            holder.put(channel, w.id);
            w.acquired[index] = time;
            int k = w.channels.length;
            long m = w.flits;
            if (index + 1 < k) {
                push(time + p.cd(), REQUEST, w.id, index + 1);
            }
            if (index - m >= 0) {
                // The tail leaves channel index - m as the header enters this one.
                push(time, RELEASE, w.id, (int) (index - m));
            }
            if (index == k - 1) {
                // The header is through: the rest of the worm drains a flit per cd, unblockable.
                for (long j = Math.max(0, k - m); j < k; j++) {
                    push(time + (j + m - k + 1) * p.cd(), RELEASE, w.id, (int) j);
                }
                push(time + m * p.cd(), TAIL, w.id, 0);
            }
        }

        private void release(Worm w, int index, double time) {
            int channel = w.channels[index];
            holder.remove(channel);
            w.released[index] = time;
            occupancy.add(new Occupancy(channel, w.id, w.acquired[index], time));
            ArrayDeque<Worm> queue = waiting.get(channel);
            if (queue != null && !queue.isEmpty()) {
                Worm next = queue.poll();
                grant(next, next.waitingIndex, time);
            }
        }

        private void tail(Worm w, double time) {
            w.tail = time;
            int ports = ports();
            int best = w.dst * ports;
            for (int q = best + 1; q < (w.dst + 1) * ports; q++) {
                if (recvFree[q] < recvFree[best]) {
                    best = q;
                }
            }
            double delivery = Math.max(time, recvFree[best]) + p.tRecv(w.bytes);
            recvFree[best] = delivery;
            w.delivery = delivery;
            undelivered--;
            deliveries.add(new double[] {delivery, w.id});
        }

        private WormholeDeadlockException deadlock() {
            List<String> stuck = new ArrayList<>();
            for (Map.Entry<Integer, ArrayDeque<Worm>> q : waiting.entrySet()) {
                for (Worm w : q.getValue()) {
                    if (stuck.size() < 8) {
                        stuck.add("message " + w.id + " (" + topology.label(w.src) + "->" + topology.label(w.dst)
                                + ") waits for " + channelLabel(q.getKey()) + " held by message " + holder.get(q.getKey()));
                    }
                }
            }
            return new WormholeDeadlockException("wormhole deadlock on " + describe() + ": " + undelivered
                    + " messages blocked in a cycle of channels, e.g. " + String.join("; ", stuck));
        }
    }

    /** Cost-model timing; occupancy [s, s + t_hold) on every channel of the path is checked for overlaps. */
    final class OccupancyRun extends FabricRun {
        private final Map<Integer, List<Worm>> active = new HashMap<>();

        @Override
        void admit(Worm w) {
            double hold = model.tHold(w.src, w.dst, w.bytes);
            double end = w.start + hold;
            w.tail = end;
            w.delivery = w.start + model.tEnd(w.src, w.dst, w.bytes);
            for (int i = 0; i < w.channels.length; i++) {
                int channel = w.channels[i];
                w.acquired[i] = w.start;
                w.released[i] = end;
                if (!(hold > 0)) {
                    continue;
                }
                List<Worm> on = active.computeIfAbsent(channel, c -> new ArrayList<>());
                on.removeIf(other -> other.tail <= w.start);
                for (Worm other : on) {
                    contention(w, other.id, channel, w.start, other.tail);
                    w.waited = Math.max(w.waited, other.tail - w.start);
                }
                on.add(w);
                occupancy.add(new Occupancy(channel, w.id, w.start, end));
            }
            deliveries.add(new double[] {w.delivery, w.id});
        }

        @Override
        public double nextDelivery() {
            double[] head = deliveries.peek();
            return head == null ? Double.POSITIVE_INFINITY : head[0];
        }
    }
}
