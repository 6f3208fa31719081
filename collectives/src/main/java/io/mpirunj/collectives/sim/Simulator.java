package io.mpirunj.collectives.sim;

import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.Instruction;
import io.mpirunj.collectives.schedule.ProgramAnalysis;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.CostModelNetwork;
import io.mpirunj.fabric.model.LinearCost;
import io.mpirunj.fabric.model.NetworkModel;
import io.mpirunj.fabric.model.ParameterizedModel;
import io.mpirunj.fabric.placement.Placement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;

/**
 * Evaluates a schedule in virtual time, deterministically.
 *
 * <h2>Event evaluation</h2>
 * Each rank runs its program with the semantics of {@link Schedule}. A send starts at the
 * latest of: the start of the rank's previous send (sends leave in program order), the time the
 * rank holds every block it carries, and the time one of its ports is free (the port it names, if
 * it names one the network has; a port is busy for
 * {@link NetworkModel#sendGap} = t_hold after a send starts). The network decides when the
 * receiver holds the message (t_end later for a cost model). A rank's receive port completes
 * consecutive receives at least {@link NetworkModel#receiveGap} = t_hold apart; a message that
 * arrives while all receive ports are busy completes when one frees. Of the copies a
 * RECV_FIRST_OF waits for, the first to complete delivers and later ones are dropped; when another
 * copy's send had started before the first one arrived, the receiver spends
 * {@link NetworkModel#firstOfDecision()} (paper 003's α) choosing, so it holds the data α later.
 * When nodes share CPUs ({@link NetworkModel#cpus()}), every send and receive also holds one of them for
 * its gap, and a receiver holds the data {@link NetworkModel#wake} after its receive takes a CPU (the
 * latency of being scheduled: it delays what the receiver forwards but occupies no CPU). A message above
 * {@link NetworkModel#rendezvousAbove()} goes by rendezvous: its data leaves no earlier than
 * {@link NetworkModel#rendezvousRoundTrip} after the send is posted (the time the rank holds what it carries), the
 * handshake overlapping the rank's earlier sends, as the runner posts every send whose data it holds.
 *
 * <h2>Rounds evaluation</h2>
 * The same execution with every message and every gap lasting one round, then each round
 * charged the longest t_end of the messages it carries (see {@link Evaluation#ROUNDS}).
 *
 * <p>Ties are broken by insertion order, so results never depend on hashing or threads.
 */
public final class Simulator {

    private Simulator() {
    }

    public static Simulation simulate(Schedule schedule, CostModel model, Evaluation evaluation) {
        return evaluation == Evaluation.EVENT ? event(schedule, model) : rounds(schedule, model);
    }

    /** Event evaluation on a cost model; schedule rank r is model node r. */
    public static Simulation event(Schedule schedule, CostModel model) {
        return event(schedule, new CostModelNetwork(model), Placement.identity(schedule.ranks()));
    }

    /**
     * Event evaluation on any network.
     *
     * @param nodeOf nodeOf[r] is the network node schedule rank r runs on
     */
    public static Simulation event(Schedule schedule, NetworkModel network, int[] nodeOf) {
        Objects.requireNonNull(network, "network");
        if (nodeOf.length != schedule.ranks()) {
            throw new IllegalArgumentException("nodeOf has " + nodeOf.length + " entries (expected: ranks="
                    + schedule.ranks() + ")");
        }
        Run run = new Run(schedule, network, nodeOf.clone());
        run.execute();
        return new Simulation(schedule, Evaluation.EVENT, network.describe(), run.rankCompletion(), run.messages(),
                run.wire.contentions());
    }

    /** Rounds evaluation (the papers' step counting, each round costing t_end). */
    public static Simulation rounds(Schedule schedule, CostModel model) {
        Objects.requireNonNull(model, "model");
        Run run = new Run(schedule, unitNetwork(model.ports()), Placement.identity(schedule.ranks()));
        run.execute();
        List<Message> unit = run.messages();
        int rounds = 0;
        for (Message m : unit) {
            rounds = Math.max(rounds, (int) m.end());
        }
        double[] length = new double[rounds + 1];
        for (Message m : unit) {
            int round = (int) m.end();
            length[round] = Math.max(length[round], model.tEnd(m.src(), m.dst(), m.bytes()));
        }
        double[] endOf = new double[rounds + 1];
        for (int r = 1; r <= rounds; r++) {
            endOf[r] = endOf[r - 1] + length[r];
        }
        List<Message> messages = new ArrayList<>(unit.size());
        for (Message m : unit) {
            int round = (int) m.end();
            messages.add(new Message(m.src(), m.dst(), endOf[round - 1], endOf[round], m.step(), m.bytes(), m.dropped()));
        }
        double[] completion = run.rankCompletion();
        for (int r = 0; r < completion.length; r++) {
            completion[r] = endOf[(int) completion[r]];
        }
        return new Simulation(schedule, Evaluation.ROUNDS, model.toString(), completion, messages);
    }

    /** Every message takes one round and occupies its ports for one round. */
    private static NetworkModel unitNetwork(int ports) {
        return new CostModelNetwork(new ParameterizedModel(LinearCost.of(1), LinearCost.of(1), ports));
    }

    /** One execution: the agenda of local events plus the network's deliveries. */
    private static final class Run {
        private static final int SEND_START = 0;
        private static final int ARRIVAL = 1;

        private final Schedule schedule;
        private final ProgramAnalysis analysis;
        private final NetworkModel network;
        private final NetworkModel.Run wire;
        private final int[] nodeOf;
        private final int ports;

        private final double[] doneAt;
        private final int[][] sendsOf;
        private final int[][] localsOf;
        private final int[] localCursor;
        /** Per receive: when its message arrived while an earlier instruction still used its bytes; else NaN. */
        private final double[] heldBack;
        private final int[] heldBackCount;
        private final int[] cursor;
        private final boolean[] sendScheduled;
        private final double[] lastSendStart;
        private final double[] sendPortFree;
        private final double[] recvPortFree;
        /** Per receive: how many matched sends have started (a RECV_FIRST_OF has several). */
        private final int[] copiesStarted;
        private final double firstOfDecision;
        private final long rendezvousAbove;
        /** When each shared CPU is next free; empty when every node has its own. */
        private final double[] cpuFree;

        private final List<Integer> messageSend = new ArrayList<>();
        private final List<double[]> messageTimes = new ArrayList<>();
        private final List<Boolean> messageDropped = new ArrayList<>();

        // (time, seq, kind, payload): ties in time resolve by insertion order.
        private final PriorityQueue<long[]> agenda = new PriorityQueue<>(
                (a, b) -> a[0] != b[0] ? Double.compare(Double.longBitsToDouble(a[0]), Double.longBitsToDouble(b[0]))
                        : Long.compare(a[1], b[1]));
        private long seq;

        Run(Schedule schedule, NetworkModel network, int[] nodeOf) {
            this.schedule = schedule;
            this.analysis = ProgramAnalysis.of(schedule);
            if (!analysis.ok()) {
                throw new IllegalArgumentException("cannot simulate invalid schedule " + schedule + ":\n  "
                        + String.join("\n  ", analysis.errors()));
            }
            this.network = network;
            this.wire = network.open();
            this.nodeOf = nodeOf;
            this.ports = network.ports();
            int ranks = schedule.ranks();
            int n = analysis.instructionCount();
            doneAt = new double[n];
            Arrays.fill(doneAt, Double.NaN);
            sendsOf = new int[ranks][];
            localsOf = new int[ranks][];
            for (int r = 0; r < ranks; r++) {
                sendsOf[r] = ids(r, true);
                localsOf[r] = ids(r, false);
            }
            localCursor = new int[ranks];
            heldBackCount = new int[ranks];
            heldBack = new double[n];
            Arrays.fill(heldBack, Double.NaN);
            cursor = new int[ranks];
            sendScheduled = new boolean[ranks];
            lastSendStart = new double[ranks];
            sendPortFree = new double[ranks * ports];
            recvPortFree = new double[ranks * ports];
            copiesStarted = new int[n];
            firstOfDecision = network.firstOfDecision();
            rendezvousAbove = network.rendezvousAbove();
            cpuFree = new double[Math.max(0, network.cpus())];
        }

        /** The ids of {@code rank}'s sends (or local operations), in program order. */
        private int[] ids(int rank, boolean sends) {
            List<Instruction> program = schedule.program(rank);
            int count = 0;
            for (Instruction in : program) {
                count += (sends ? in.isSend() : in.isLocal()) ? 1 : 0;
            }
            int[] out = new int[count];
            int k = 0;
            for (int i = 0; i < program.size(); i++) {
                if (sends ? program.get(i).isSend() : program.get(i).isLocal()) {
                    out[k++] = analysis.id(rank, i);
                }
            }
            return out;
        }

        /**
         * The time all of an instruction's providers and hazards are done, or NaN while one is not.
         * Local operations take no model time.
         */
        private double dependenciesDone(int id) {
            double t = 0;
            for (int i = 0; i < analysis.providerCount(id); i++) {
                t = Math.max(t, doneAt[analysis.provider(id, i)]);
            }
            for (int i = 0; i < analysis.hazardCount(id); i++) {
                t = Math.max(t, doneAt[analysis.hazard(id, i)]);
            }
            return t; // NaN propagates through max
        }

        /** Runs what a rank can after an event: held-back receives, local operations, then its next send. */
        private void progress(int rank, double now) {
            boolean moved = true;
            while (moved) {
                moved = false;
                int size = heldBackCount[rank] == 0 ? 0 : schedule.program(rank).size();
                for (int i = 0; i < size; i++) {
                    int id = analysis.id(rank, i);
                    if (!Double.isNaN(heldBack[id])) {
                        double t = dependenciesDone(id);
                        if (!Double.isNaN(t)) {
                            doneAt[id] = Math.max(t, heldBack[id]);
                            heldBack[id] = Double.NaN;
                            heldBackCount[rank]--;
                            moved = true;
                        }
                    }
                }
                while (localCursor[rank] < localsOf[rank].length) {
                    int id = localsOf[rank][localCursor[rank]];
                    double t = dependenciesDone(id);
                    if (localCursor[rank] > 0) {
                        t = Math.max(t, doneAt[localsOf[rank][localCursor[rank] - 1]]);
                    }
                    if (Double.isNaN(t)) {
                        break;
                    }
                    doneAt[id] = t;
                    localCursor[rank]++;
                    moved = true;
                }
            }
            tryIssue(rank, now);
        }

        void execute() {
            for (int r = 0; r < schedule.ranks(); r++) {
                progress(r, 0);
            }
            while (true) {
                long[] local = agenda.peek();
                double localTime = local == null ? Double.POSITIVE_INFINITY : Double.longBitsToDouble(local[0]);
                // Every future inject happens at or after localTime: the wire may run up to it.
                double wireTime = wire.nextDelivery(localTime);
                if (local == null && wireTime == Double.POSITIVE_INFINITY) {
                    break;
                }
                if (localTime <= wireTime) {
                    agenda.poll();
                    if (local[2] == SEND_START) {
                        startSend((int) local[3], localTime);
                    } else {
                        arrive((int) local[3], localTime);
                    }
                } else {
                    arrive(wire.takeDelivery(), wireTime);
                }
            }
            reportStuck();
        }

        private void push(double time, int kind, int payload) {
            agenda.add(new long[] {Double.doubleToLongBits(time), seq++, kind, payload});
        }

        /** Schedules the rank's next send if its data is held; otherwise a later receive retries. */
        private void tryIssue(int rank, double now) {
            if (sendScheduled[rank] || cursor[rank] == sendsOf[rank].length) {
                return;
            }
            int send = sendsOf[rank][cursor[rank]];
            double posted = 0;
            for (int i = 0; i < analysis.providerCount(send); i++) {
                double held = doneAt[analysis.provider(send, i)];
                if (Double.isNaN(held)) {
                    return;
                }
                posted = Math.max(posted, held);
            }
            double start = Math.max(Math.max(now, lastSendStart[rank]), posted);
            Instruction in = analysis.instruction(send);
            if (rendezvousAbove != Long.MAX_VALUE && schedule.bytes(in.blocks()) > rendezvousAbove) {
                // RTS out when the data is held, CTS back: the data leaves after the round trip at the earliest
                start = Math.max(start, posted + network.rendezvousRoundTrip(nodeOf[rank], nodeOf[in.peer()]));
            }
            start = Math.max(start, sendPortFree[sendPort(send, rank)]);
            sendScheduled[rank] = true;
            push(start, SEND_START, send);
        }

        private void startSend(int send, double time) {
            int cpu = freestCpu();
            if (cpu >= 0 && cpuFree[cpu] > time) {
                push(cpuFree[cpu], SEND_START, send); // every shared CPU is busy: start when one frees
                return;
            }
            int rank = analysis.rankOf(send);
            Instruction in = analysis.instruction(send);
            long bytes = schedule.bytes(in.blocks());
            int port = sendPort(send, rank);
            sendPortFree[port] = time + network.sendGap(nodeOf[rank], nodeOf[in.peer()], bytes);
            if (cpu >= 0) {
                cpuFree[cpu] = sendPortFree[port];
            }
            lastSendStart[rank] = time;
            doneAt[send] = time;
            int message = messageSend.size();
            messageSend.add(send);
            messageTimes.add(new double[] {time, Double.NaN});
            messageDropped.add(false);
            int receive = analysis.matchedReceive(send);
            if (receive >= 0) {
                copiesStarted[receive]++;
            }
            if (in.hasPath()) {
                wire.inject(message, nodeOf[rank], nodeOf[in.peer()], bytes, time, in.path());
            } else {
                wire.inject(message, nodeOf[rank], nodeOf[in.peer()], bytes, time);
            }
            cursor[rank]++;
            sendScheduled[rank] = false;
            progress(rank, time); // a local operation may have waited for this send
        }

        private void arrive(int message, double time) {
            int send = messageSend.get(message);
            int receive = analysis.matchedReceive(send);
            int rank = analysis.rankOf(receive);
            if (!Double.isNaN(doneAt[receive]) || !Double.isNaN(heldBack[receive])) {
                // A RECV_FIRST_OF already took another parent's copy: this one is discarded.
                messageTimes.get(message)[1] = time;
                messageDropped.set(message, true);
                return;
            }
            int port = freestPort(recvPortFree, rank);
            if (recvPortFree[port] > time) {
                push(recvPortFree[port], ARRIVAL, message);
                return;
            }
            int cpu = freestCpu();
            if (cpu >= 0 && cpuFree[cpu] > time) {
                push(cpuFree[cpu], ARRIVAL, message); // every shared CPU is busy: complete when one frees
                return;
            }
            if (copiesStarted[receive] > 1 && analysis.instruction(receive).kind() == Instruction.Kind.RECV_FIRST_OF) {
                time += firstOfDecision; // a second copy is on its way: choose between them (α)
            }
            long bytes = schedule.bytes(analysis.instruction(send).blocks());
            int src = nodeOf[analysis.rankOf(send)];
            recvPortFree[port] = time + network.receiveGap(src, nodeOf[rank], bytes);
            if (cpu >= 0) {
                cpuFree[cpu] = recvPortFree[port];
                time += network.wake(src, nodeOf[rank], bytes); // scheduled onto a shared CPU: not work, latency
            }
            messageTimes.get(message)[1] = time;
            if (analysis.hazardCount(receive) == 0) {
                doneAt[receive] = time;
            } else {
                heldBackCount[rank]++;
                heldBack[receive] = time; // its bytes are settled once earlier users of them are done
            }
            progress(rank, time);
        }

        /** The port a send names (a star broadcast's first link), else the one free first. */
        private int sendPort(int send, int rank) {
            int named = analysis.instruction(send).port();
            return named != Instruction.ANY_PORT && named < ports ? rank * ports + named : freestPort(sendPortFree, rank);
        }

        /** The shared CPU free first, or -1 when every node has its own. */
        private int freestCpu() {
            int best = cpuFree.length == 0 ? -1 : 0;
            for (int c = 1; c < cpuFree.length; c++) {
                if (cpuFree[c] < cpuFree[best]) {
                    best = c;
                }
            }
            return best;
        }

        private int freestPort(double[] free, int rank) {
            int best = rank * ports;
            for (int p = best + 1; p < (rank + 1) * ports; p++) {
                if (free[p] < free[best]) {
                    best = p;
                }
            }
            return best;
        }

        private void reportStuck() {
            List<String> stuck = new ArrayList<>();
            int count = 0;
            for (int id = 0; id < doneAt.length; id++) {
                if (Double.isNaN(doneAt[id])) {
                    if (count++ < 10) {
                        stuck.add("rank " + analysis.rankOf(id) + " #" + analysis.indexOf(id) + " (" + analysis.instruction(id) + ")");
                    }
                }
            }
            if (count > 0) {
                throw new IllegalStateException("schedule " + schedule + " deadlocks: " + count
                        + " instructions never run, e.g. " + String.join("; ", stuck));
            }
        }

        double[] rankCompletion() {
            double[] completion = new double[schedule.ranks()];
            for (int r = 0; r < schedule.ranks(); r++) {
                List<Block> expected = schedule.expectedBlocks(r);
                if (!schedule.collective().rooted() && !schedule.collective().pairs()) {
                    // No block contract: the rank is done when its last instruction is.
                    for (int i = 0; i < schedule.program(r).size(); i++) {
                        completion[r] = Math.max(completion[r], doneAt[analysis.id(r, i)]);
                    }
                    continue;
                }
                if (expected.isEmpty()) {
                    continue;
                }
                Map<Block, Double> heldAt = new HashMap<>();
                List<Instruction> program = schedule.program(r);
                for (int i = 0; i < program.size(); i++) {
                    Instruction in = program.get(i);
                    if (!in.isReceive()) {
                        continue;
                    }
                    double t = doneAt[analysis.id(r, i)];
                    for (Block b : in.blocks()) {
                        heldAt.merge(b, t, Math::min);
                    }
                }
                double last = 0;
                for (Block b : expected) {
                    Double t = heldAt.get(b);
                    if (t == null) {
                        throw new IllegalArgumentException("schedule " + schedule + " never delivers " + b
                                + " to rank " + r + " (run the Verifier)");
                    }
                    last = Math.max(last, t);
                }
                completion[r] = last;
            }
            return completion;
        }

        List<Message> messages() {
            List<Message> out = new ArrayList<>(messageSend.size());
            for (int m = 0; m < messageSend.size(); m++) {
                int send = messageSend.get(m);
                Instruction in = analysis.instruction(send);
                double[] times = messageTimes.get(m);
                int[] nodes = wire.path(m);
                List<Integer> path = new ArrayList<>(nodes.length);
                for (int node : nodes) {
                    path.add(node);
                }
                out.add(new Message(analysis.rankOf(send), in.peer(), times[0], times[1], in.step(),
                        schedule.bytes(in.blocks()), messageDropped.get(m), path, wire.waited(m)));
            }
            return out;
        }
    }
}
