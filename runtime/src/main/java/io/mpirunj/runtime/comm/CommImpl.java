package io.mpirunj.runtime.comm;

import io.mpirunj.AbortedException;
import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.MpiException;
import io.mpirunj.Op;
import io.mpirunj.Request;
import io.mpirunj.Status;
import io.mpirunj.runtime.JobControl;
import io.mpirunj.runtime.RankContext;
import io.mpirunj.runtime.p2p.Group;
import io.mpirunj.runtime.p2p.P2pEngine;
import io.mpirunj.runtime.reduce.Reductions;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveOp;
import io.mpirunj.runtime.spi.CallShape;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import io.mpirunj.runtime.spi.Selection;
import io.mpirunj.runtime.transport.Frame;
import io.mpirunj.runtime.transport.FrameKind;
import io.mpirunj.runtime.transport.TransportProgress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * A communicator: a {@link Group} and a pair of context ids, {@code context} for user
 * point-to-point and {@code context + 1} for collectives, so the two never match each other.
 * Context ids are agreed when a communicator is made: the highest id any member has free. Disjoint
 * groups may share an id, since their members never talk to each other on it.
 */
public final class CommImpl implements Comm {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(CommImpl.class);
    public static final int WORLD_CONTEXT = 0;

    /** Tag of the internal exchanges that create communicators. */
    private static final int INTERNAL_TAG = Integer.MAX_VALUE;
    /** Tag of the {@code --coll-report} gather at exit. */
    private static final int REPORT_TAG = Integer.MAX_VALUE - 1;
    /**
     * How long {@code Mpi.finish} waits for the collective messages the job's fence says were sent to this rank and
     * have not arrived (on their way: they come within milliseconds; the bound keeps a lost one from hanging it).
     */
    private static final long ARRIVALS_WAIT_S = 30;
    /** Why {@link #close} on the world fails before Mpi.finish. */
    private static final String CLOSED_BEFORE_FINISH = "world.close() before Mpi.finish(): the world communicator is "
            + "left with Mpi.finish() (the last statement of a try (Comm world = Mpi.init(args)) block)";
    /** Tag of the exchanges that check the ranks' collective calls match ({@code --check-collectives}). */
    private static final int CHECK_TAG = Integer.MAX_VALUE - 2;
    /** The calls {@code --check-collectives} compares, by index. */
    private static final List<String> CHECKED_CALLS = List.of("barrier", "bcast", "alltoall", "alltoallv", "gather",
            "gatherv", "scatter", "scatterv", "allgather", "allgatherv", "reduce", "allreduce", "reduceScatter",
            "reduceScatterBlock", "scan", "exscan", "split", "dup", "create", "Mpi.finish");

    private final RankContext rc;
    /**
     * A view's own choices of collectives ({@link #withCollectives}), or null for the rank's registry,
     * asked for only when a collective needs it (a rank makes its registry then).
     */
    private final CollectiveRegistry registry;
    private final P2pEngine engine;
    private final CallTracker calls;
    private final Group group;
    private final int rank;
    private final int context;
    /** What ran in place of the selected algorithm in the blocking call being timed for the report, or null. */
    private CollectiveAlgorithm ranInstead;
    private final Channel coll = new Channel();
    private volatile boolean freed;

    /**
     * Whether a message on {@code context} with {@code tag} is one of the runtime's own exchanges (making
     * communicators, finishing, the exit report, the calls' check) rather than a collective algorithm's.
     */
    private static boolean isRuntimeExchange(int context, int tag) {
        return P2pEngine.isCollectiveContext(context) && tag >= P2pEngine.FINISH_FENCE_TAG;
    }

    /** Whether {@code frame} starts a message of {@link #isRuntimeExchange one of the runtime's own exchanges}. */
    public static boolean isRuntimeExchange(Frame frame) {
        return (frame.kind() == FrameKind.EAGER || frame.kind() == FrameKind.RTS)
                && isRuntimeExchange(frame.context(), frame.tag());
    }

    private CommImpl(RankContext rc, Group group, int context) {
        this(rc, group, context, null);
    }

    private CommImpl(RankContext rc, Group group, int context, CollectiveRegistry registry) {
        this.rc = rc;
        this.engine = rc.engine();
        this.calls = rc.calls();
        this.group = group;
        this.rank = group.rankOf(rc.rank());
        this.context = context;
        this.registry = registry;
    }

    /** The rank this communicator belongs to (its configuration, engine and registry). */
    public RankContext rankContext() {
        return rc;
    }

    public static CommImpl world(RankContext rc) {
        return new CommImpl(rc, Group.world(rc.size()), WORLD_CONTEXT);
    }

    /** True for the world communicator. */
    public boolean isWorld() {
        return context == WORLD_CONTEXT;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return group.size();
    }

    @Override
    public int worldRank(int r) {
        checkRank(r, "rank");
        return group.worldRank(r);
    }

    @Override
    public double wtime() {
        return rc.config().clock().nanoTime() / 1e9;
    }

    @Override
    public long wtimeNs() {
        return rc.config().clock().nanoTime();
    }

    @Override
    public void abort(int code) {
        String reason = "Comm.abort(" + code + ") called on rank " + rc.rank();
        rc.control().abort(rc.rank(), code, reason);
        rc.onJobAborted(code, reason);
        throw new AbortedException(code, reason);
    }

    // ---- point-to-point ----------------------------------------------------------------------------

    @Override
    public void send(Buffer buf, int dest, int tag) {
        CallTracker.Call call = calls.enter("send", "dest", dest, tag, this);
        try {
            isend(buf, dest, tag).await();
        } finally {
            calls.exit(call);
        }
    }

    @Override
    public Status recv(Buffer buf, int source, int tag) {
        CallTracker.Call call = calls.enter("recv", "source", source, tag, this);
        try {
            return irecv(buf, source, tag).await();
        } finally {
            calls.exit(call);
        }
    }

    @Override
    public Request isend(Buffer buf, int dest, int tag) {
        checkUsable();
        checkTag(tag, false);
        if (dest == PROC_NULL) {
            return procNull(buf);
        }
        checkRank(dest, "dest");
        return engine.isend(buf, group.worldRank(dest), context, tag, group);
    }

    @Override
    public Request irecv(Buffer buf, int source, int tag) {
        checkUsable();
        int t = checkTag(tag, true);
        return source == PROC_NULL ? procNull(buf) : engine.irecv(buf, worldSource(source), context, t, group);
    }

    /** A transfer with {@link #PROC_NULL}: done, nothing moved. */
    private static Request procNull(Buffer buf) {
        io.mpirunj.runtime.p2p.RequestImpl r = new io.mpirunj.runtime.p2p.RequestImpl(
                io.mpirunj.runtime.p2p.WaitPolicy.standalone());
        r.complete(procNullStatus(buf.type().bytes()));
        return r;
    }

    private static Status procNullStatus(int elementBytes) {
        return new Status(PROC_NULL, ANY_TAG, 0, elementBytes);
    }

    @Override
    public Status sendrecv(Buffer sendBuf, int dest, int sendTag, Buffer recvBuf, int source, int recvTag) {
        CallTracker.Call call = calls.enter("sendrecv", "source", source, recvTag, this);
        try {
            Request r = irecv(recvBuf, source, recvTag);
            Request s = isend(sendBuf, dest, sendTag);
            s.await();
            return r.await();
        } finally {
            calls.exit(call);
        }
    }

    @Override
    public Status probe(int source, int tag) {
        CallTracker.Call call = calls.enter("probe", "source", source, tag, this);
        try {
            checkUsable();
            int t = checkTag(tag, true);
            return source == PROC_NULL ? procNullStatus(1) : engine.probe(worldSource(source), context, t, group);
        } finally {
            calls.exit(call);
        }
    }

    @Override
    public Status iprobe(int source, int tag) {
        checkUsable();
        int t = checkTag(tag, true);
        return source == PROC_NULL ? procNullStatus(1) : engine.iprobe(worldSource(source), context, t, group);
    }

    private int worldSource(int source) {
        if (source == ANY_SOURCE) {
            return P2pEngine.ANY;
        }
        checkRank(source, "source");
        return group.worldRank(source);
    }

    private void checkRank(int r, String what) {
        if (r < 0 || r >= group.size()) {
            throw new IllegalArgumentException(what + "=" + r + " outside communicator of size " + group.size()
                    + " (on rank " + rank + ")");
        }
    }

    private int checkTag(int tag, boolean wildcardOk) {
        if (tag == ANY_TAG && wildcardOk) {
            return P2pEngine.ANY;
        }
        if (tag < 0) {
            throw new IllegalArgumentException("tag=" + tag + " (expected: >= 0" + (wildcardOk ? " or ANY_TAG" : "") + ")");
        }
        return tag;
    }

    private void checkUsable() {
        if (freed) {
            throw new MpiException("communicator used after close() on rank " + rank);
        }
    }

    // ---- communicators -----------------------------------------------------------------------------

    @Override
    public Comm dup() {
        return split("dup", 0, rank);
    }

    @Override
    public Comm split(int color, int key) {
        return split("split", color, key);
    }

    /** {@code split}, or the call {@code name} made of it (dup, create), which trackers and checks name. */
    private Comm split(String name, int color, int key) {
        CallTracker.Call call = calls.enter(name, this);
        try {
            checkUsable();
            if (color < 0 && color != UNDEFINED) {
                throw new IllegalArgumentException("color=" + color + " (expected: >= 0 or UNDEFINED)");
            }
            checkCallsMatch(name, CallTracker.NO_PEER, null);
            int[][] all = allgatherInts(new int[] {color, key, rc.peekContextId()}, INTERNAL_TAG);
            int newContext = 0;
            for (int[] a : all) {
                newContext = Math.max(newContext, a[2]);
            }
            rc.takeContextIds(newContext);
            if (color == UNDEFINED) {
                return null;
            }
            List<Integer> members = new ArrayList<>();
            for (int r = 0; r < all.length; r++) {
                if (all[r][0] == color) {
                    members.add(r);
                }
            }
            members.sort(Comparator.<Integer>comparingInt(r -> all[r][1]).thenComparingInt(r -> r));
            int[] world = new int[members.size()];
            for (int i = 0; i < world.length; i++) {
                world[i] = group.worldRank(members.get(i));
            }
            return new CommImpl(rc, new Group(world, rc.size()), newContext);
        } finally {
            calls.exit(call);
        }
    }

    @Override
    public Comm create(int... ranks) {
        checkUsable();
        int mine = -1;
        boolean[] seen = new boolean[group.size()];
        for (int i = 0; i < ranks.length; i++) {
            checkRank(ranks[i], "ranks[" + i + "]");
            if (seen[ranks[i]]) {
                throw new IllegalArgumentException("rank " + ranks[i] + " listed twice in " + Arrays.toString(ranks));
            }
            seen[ranks[i]] = true;
            if (ranks[i] == rank) {
                mine = i;
            }
        }
        return split("create", mine >= 0 ? 0 : UNDEFINED, mine);
    }

    /**
     * Every rank's ints, in rank order: gathered at rank 0 and sent back. Linear, for the rare
     * calls that make communicators; independent of the pluggable collectives.
     */
    private int[][] allgatherInts(int[] mine, int tag) {
        int n = group.size();
        int k = mine.length;
        int[] all = new int[n * k];
        if (rank == 0) {
            System.arraycopy(mine, 0, all, 0, k);
            for (int r = 1; r < n; r++) {
                coll.recv(Buffer.of(all, r * k, k), r, tag);
            }
            Request[] sends = new Request[n - 1];
            for (int r = 1; r < n; r++) {
                sends[r - 1] = coll.isend(Buffer.of(all), r, tag);
            }
            Request.waitAll(sends);
        } else {
            coll.send(Buffer.of(mine), 0, tag);
            coll.recv(Buffer.of(all), 0, tag);
        }
        int[][] out = new int[n][k];
        for (int r = 0; r < n; r++) {
            System.arraycopy(all, r * k, out[r], 0, k);
        }
        return out;
    }

    /** Point-to-point on this communicator's private collective context (see {@link CollChannel#of}). */
    public CollChannel collectiveChannel() {
        return coll;
    }

    /**
     * {@code --check-collectives}: before a collective call, the ranks exchange what each called (the call, its root
     * and the size the ranks agree on: {@link CallShape}) and each fails at once if the calls differ, naming every
     * rank's call, instead of running calls that consume each other's messages. One small exchange through rank 0
     * on every blocking call, in call order; for debugging. Not checked: a non-blocking call (starting one may not
     * wait for the other ranks: MPI programs rely on it) and a multicast (only its root and group call it).
     */
    private void checkCallsMatch(String name, int root, CallShape shape) {
        if (!rc.config().checkCollectives() || name.equals("multicast")) {
            return;
        }
        long bytes = shape == null ? -1 : shape.bytes();
        int[] mine = {CHECKED_CALLS.indexOf(name), root, (int) (bytes >>> 32), (int) bytes};
        long call = rc.nextCheckedCall(context);
        int[][] all = allgatherInts(mine, CHECK_TAG);
        java.util.Map<String, java.util.List<Integer>> ranksByCall = new java.util.LinkedHashMap<>();
        for (int r = 0; r < all.length; r++) {
            ranksByCall.computeIfAbsent(describeCall(all[r]), c -> new ArrayList<>()).add(r);
        }
        if (ranksByCall.size() > 1) {
            StringBuilder b = new StringBuilder("rank ").append(rank)
                    .append(": the ranks' collective calls do not match (--check-collectives): call ").append(call)
                    .append(" on ").append(isWorld() ? "the world communicator" : "a communicator of "
                            + group.size() + " ranks").append(" is ");
            String sep = "";
            for (java.util.Map.Entry<String, java.util.List<Integer>> e : ranksByCall.entrySet()) {
                b.append(sep).append(e.getKey()).append(" on ").append(e.getValue().size() == 1 ? "rank " : "ranks ")
                        .append(e.getValue().stream().map(String::valueOf)
                                .collect(java.util.stream.Collectors.joining(", ")));
                sep = "; ";
            }
            confirmMismatchSeen();
            throw new MpiException(b.toString());
        }
    }

    /**
     * Every rank has just found the same mismatch and is about to fail. Rank 0 sent each rank the table it found it
     * in, so it stays until each has said it has the table (or has left): a rank process that exits with its sends
     * still queued loses them, and the others failed with "connection lost" instead of naming the calls (a new user's
     * trial, 2 runs of 4). The others' word may be lost the same way; their leaving then answers for them.
     */
    private void confirmMismatchSeen() {
        int[] word = new int[1];
        try {
            if (rank != 0) {
                coll.send(Buffer.of(word), 0, CHECK_TAG);
                return;
            }
            for (int r = 1; r < group.size(); r++) {
                try {
                    coll.recv(Buffer.of(word), r, CHECK_TAG);
                } catch (MpiException e) {
                    // rank r left: it had the table
                }
            }
        } catch (MpiException e) {
            // rank 0 left: nothing to confirm
        }
    }

    /** A call as {@link #checkCallsMatch} sent it: {@code bcast(root 0, 4 bytes)}. */
    private static String describeCall(int[] sent) {
        String name = sent[0] >= 0 && sent[0] < CHECKED_CALLS.size() ? CHECKED_CALLS.get(sent[0]) : "call #" + sent[0];
        long bytes = ((long) sent[2] << 32) | (sent[3] & 0xFFFFFFFFL);
        List<String> args = new ArrayList<>();
        if (sent[1] != CallTracker.NO_PEER) {
            args.add("root " + sent[1]);
        }
        if (bytes >= 0) {
            args.add(bytes + (bytes == 1 ? " byte" : " bytes"));
        }
        return args.isEmpty() ? name : name + "(" + String.join(", ", args) + ")";
    }

    /**
     * The barrier of MPI_Finalize: the job's fence where it has one (processes: through the launcher, so a job whose
     * ranks never talked opens no connection; with --check-collectives, the check's exchange opens some), then a wait
     * for the collective messages it says the ranks sent here (so Mpi.finish sees any that no call here received);
     * else an allgather independent of the pluggable collectives (ranks as threads: messages arrive as they are sent).
     */
    public void finishBarrier() {
        CallTracker.Call call = calls.enter("Mpi.finish", this);
        try {
            checkCallsMatch("Mpi.finish", CallTracker.NO_PEER, null);
            P2pEngine engine = rc.engine();
            long toHere = TransportProgress.waitPassively(rc.transport().progress(),
                    () -> rc.control().finishFence(engine.collectiveSentTo(), engine.sentTo()));
            if (toHere == JobControl.NO_FENCE) {
                allgatherInts(new int[0], P2pEngine.FINISH_FENCE_TAG);
            } else if (!engine.awaitCollectiveArrivals(toHere, TimeUnit.SECONDS.toNanos(ARRIVALS_WAIT_S))
                    && !rc.knowsOfAFailure()) {
                LOG.warn("rank {}: Mpi.finish: after {} s not every one of the {} collective messages sent to this rank"
                        + " had arrived; looking for unmatched collective calls among those that did", rank,
                        ARRIVALS_WAIT_S, toHere);
            }
        } finally {
            calls.exit(call);
        }
    }

    @Override
    public Comm withCollectives(String spec) {
        checkUsable();
        return new CommImpl(rc, group, context, registry().withForced(spec));
    }

    @Override
    public void close() {
        if (context == WORLD_CONTEXT) {
            if (rc.isFinished()) {
                return; // try (Comm world = Mpi.init(args)) { ... Mpi.finish(); }: the job is over, nothing to close
            }
            // also seen as the suppressed exception of one that left such a block: the rank leaves without finishing
            throw new MpiException(CLOSED_BEFORE_FINISH);
        }
        freed = true;
    }

    // ---- collectives -------------------------------------------------------------------------------

    /** One operation's call on the algorithm selected for it: run (blocking: returns null) or started. */
    @FunctionalInterface
    private interface AlgorithmCall<T> {
        Request on(T algorithm, CollChannel ch, boolean blocking);
    }

    private <T extends CollectiveAlgorithm> Request collective(boolean blocking, String name, int root, Runnable check,
            CollectiveOp op, Class<T> type, CallShape shape, AlgorithmCall<T> call) {
        return collective(blocking, name, root, check, op, type, shape, null, call);
    }

    /**
     * A collective call in either form, the one dispatch of every operation: its arguments checked,
     * its algorithm selected in the registry's order (forced, rules, auto, thresholds, default) and
     * called with {@code blocking}. A blocking call is tracked as {@code name} (with its {@code root},
     * or {@link CallTracker#NO_PEER}), runs on the communicator's collective channel and, with
     * {@code --coll-report}, is timed for the report; a non-blocking one runs on a channel of its own
     * ({@link #nonBlockingChannel(int[], Consumer)}, {@code multicastRanks} for a multicast, else null) and
     * returns its request, with {@code --coll-report} timed from the call to its completion.
     */
    private <T extends CollectiveAlgorithm> Request collective(boolean blocking, String name, int root, Runnable check,
            CollectiveOp op, Class<T> type, CallShape shape, int[] multicastRanks, AlgorithmCall<T> call) {
        if (rc.isFinished()) { // else the algorithm's first message would fail, naming its internal receive
            throw new MpiException("rank " + rc.rank() + ": " + (blocking ? name : "i" + name)
                    + " after Mpi.finish (the rank has left the job)");
        }
        if (!blocking) {
            check.run();
            Selection s = choiceFor(op, shape);
            CollReport report = rc.collReport();
            if (report == null) {
                return call.on(type.cast(s.algorithm()), nonBlockingChannel(multicastRanks, null), false);
            }
            AtomicReference<CollectiveAlgorithm> instead = new AtomicReference<>();
            long start = System.nanoTime();
            Request r = call.on(type.cast(s.algorithm()), nonBlockingChannel(multicastRanks, instead::set), false);
            if (r instanceof io.mpirunj.runtime.p2p.RequestImpl pending) { // counted before a waiter sees it done
                pending.beforeCompletion(error -> {
                    if (error == null) {
                        report.record(op, shape.bytes(), s, instead.get(), System.nanoTime() - start, true);
                    }
                });
            }
            return r;
        }
        CallTracker.Call tracked = calls.enter(name, root == CallTracker.NO_PEER ? null : "root", root,
                CallTracker.NO_PEER, this);
        try {
            check.run();
            checkCallsMatch(name, root, shape);
            Selection s = select(op, shape);
            AutoTrial trial = s.source() == Selection.Source.AUTO ? trial(op, shape, true) : null;
            if (trial != null) {
                s = trial.next();
                if (!trial.learning()) { // the trials are over: nothing more to time or count
                    trial = null;
                }
            }
            CollReport report = rc.collReport();
            if (report == null && trial == null) {
                call.on(type.cast(s.algorithm()), coll, true);
                return null;
            }
            ranInstead = null;
            long start = System.nanoTime();
            call.on(type.cast(s.algorithm()), coll, true);
            long nanos = System.nanoTime() - start;
            if (report != null) {
                report.record(op, shape.bytes(), s, ranInstead, nanos);
            }
            if (trial != null && trial.record(nanos)) {
                agree(op, shape, trial);
            }
            return null;
        } finally {
            calls.exit(tracked);
        }
    }

    /**
     * What a call of {@code op} with {@code shape} runs now on this communicator without advancing anything: for
     * {@code auto}, its trials' choice once one has ended (the model's pick before), else the registry's selection.
     * What a non-blocking call runs, and what reports name.
     */
    public Selection choiceFor(CollectiveOp op, CallShape shape) {
        Selection s = select(op, shape);
        AutoTrial t = s.source() == Selection.Source.AUTO ? trial(op, shape, false) : null;
        return t != null ? t.current() : s;
    }

    /**
     * How many blocking calls of {@code op} with {@code shape} this communicator has made in its size class while
     * {@code auto}'s live trials are still to be made there (0 before the first), else -1 (trials over, off, nothing
     * to try, or not an {@code auto} call). Makes nothing. Every rank gets the same answer at the same call, so a
     * benchmark can warm up until it is -1 and time auto's choice rather than its learning.
     */
    public long autoLearningCalls(CollectiveOp op, CallShape shape) {
        Selection s = select(op, shape);
        if (s.source() != Selection.Source.AUTO || !triable(shape)) {
            return -1;
        }
        java.util.Optional<AutoTrial> known = trials().find(op, CallShape.sizeSlot(shape.bytes()));
        if (known == null) {
            return registry().shortlist(op, shape, rc.config()).size() < 2 ? -1 : 0;
        }
        return known.isPresent() && known.get().learning() ? known.get().calls() : -1;
    }

    /**
     * True when calls of {@code shape} can be tried: trials on ({@code --coll-tune}), an agreed size, and every rank
     * of the communicator taking part (a multicast's subgroup leaves the others no call to agree with).
     */
    private boolean triable(CallShape shape) {
        return rc.config().collTuneRounds() > 0 && shape.bytes() >= 0 && shape.ranks() == shape.commSize()
                && shape.commSize() >= 2;
    }

    /**
     * The trial of {@code auto}'s calls of {@code op} in {@code shape}'s size class on this communicator (shared with
     * its views), made on the first blocking one when {@code make}; null when calls of the shape are not tried
     * ({@link #triable}), the model's shortlist has one name, or (without {@code make}) none was made yet.
     */
    private AutoTrial trial(CollectiveOp op, CallShape shape, boolean make) {
        if (!triable(shape)) {
            return null;
        }
        int slot = CallShape.sizeSlot(shape.bytes());
        AutoTrials.Table table = trials();
        java.util.Optional<AutoTrial> known = table.find(op, slot);
        if (known != null || !make) {
            return known == null ? null : known.orElse(null);
        }
        return table.make(op, slot, () -> {
            List<Selection> shortlist = registry().shortlist(op, shape, rc.config());
            return shortlist.size() < 2 ? null : new AutoTrial(shortlist, rc.config().collTuneRounds());
        });
    }

    /** This communicator's context's trials (shared with its views), looked up once. */
    private AutoTrials.Table trials() {
        AutoTrials.Table t = trialTable;
        if (t == null) {
            trialTable = t = rc.autoTrials().of(context);
        }
        return t;
    }

    private volatile AutoTrials.Table trialTable;

    /**
     * The end of a trial: the ranks add their means (one allreduce on the collective channel, with the
     * algorithm chosen for allreduce without a size, so no trial starts inside it) and all take the least.
     */
    private void agree(CollectiveOp op, CallShape shape, AutoTrial trial) {
        long[] mine = trial.measured();
        long[] summed = new long[mine.length];
        registry().select(CollectiveOp.ALLREDUCE, CollectiveAlgorithm.Allreduce.class)
                .allreduce(coll, Buffer.of(mine), Buffer.of(summed), Op.SUM, true);
        trial.decide(summed);
        if (rank == 0 && LOG.isInfoEnabled()) { // what auto measured, for -v
            LOG.info("auto: {} {} on {} ranks, trial {} ({} warm of {}): {}; runs {}",
                    op.cliName(), CollReport.sizeLabel(CallShape.sizeClass(shape.bytes())), group.size(),
                    trial.trialsDone(), trial.warmTrials(), AutoTrial.TRIALS - 1, trial.lastMeasured(),
                    trial.current().algorithm().name());
        }
    }

    private Selection select(CollectiveOp op, CallShape shape) {
        checkUsable();
        return registry().select(op, shape, rc.config());
    }

    private CallShape sized(long bytes) {
        return CallShape.of(group.size(), bytes);
    }

    private CallShape unsized() {
        return CallShape.unsized(group.size());
    }

    /** A multicast's participants are its members plus the root. */
    private CallShape multicastShape(Buffer buf, int root, int[] members) {
        boolean rootIsMember = false;
        for (int m : members) {
            rootIsMember |= m == root;
        }
        return new CallShape(group.size(), members.length + (rootIsMember ? 0 : 1), buf.byteLength());
    }

    /**
     * With {@code --coll-report}: rank 0 gathers every rank's report and prints the table to its stderr.
     * Collective over this communicator; called by {@link RankContext#finish()} before the last barrier.
     */
    public void printCollReport() {
        CollReport report = rc.collReport();
        if (report == null) {
            return;
        }
        int n = group.size();
        byte[] mine = report.encode();
        if (rank != 0) {
            coll.send(Buffer.of(new int[] {mine.length}), 0, REPORT_TAG);
            coll.send(Buffer.of(mine), 0, REPORT_TAG);
            return;
        }
        List<java.util.Map<CollReport.Key, CollReport.Totals>> all = new ArrayList<>();
        all.add(report.snapshot());
        for (int r = 1; r < n; r++) {
            int[] len = new int[1];
            coll.recv(Buffer.of(len), r, REPORT_TAG);
            byte[] bytes = new byte[len[0]];
            coll.recv(Buffer.of(bytes), r, REPORT_TAG);
            all.add(CollReport.decode(bytes));
        }
        System.err.print(CollReport.format(all));
        System.err.flush();
    }

    private void checkRoot(int root) {
        checkRank(root, "root");
    }

    private static void checkSameType(Buffer a, Buffer b, String what) {
        if (a.type() != b.type()) {
            throw new IllegalArgumentException(what + ": send buffer is " + a.type() + " but receive buffer is " + b.type());
        }
    }

    private void checkCount(Buffer b, long expected, String what) {
        if (b.count() != expected) {
            throw new IllegalArgumentException(what + " has " + b.count() + " elements (expected: " + expected
                    + " on rank " + rank + " of " + group.size() + ")");
        }
    }

    private void checkLayout(Buffer b, int[] counts, int[] displs, String what) {
        int n = group.size();
        if (counts == null || displs == null || counts.length != n || displs.length != n) {
            throw new IllegalArgumentException(what + ": counts and displacements need " + n + " entries each");
        }
        for (int i = 0; i < n; i++) {
            if (counts[i] < 0 || displs[i] < 0 || (long) displs[i] + counts[i] > b.count()) {
                throw new IllegalArgumentException(what + ": block " + i + " (count=" + counts[i] + ", displ="
                        + displs[i] + ") outside buffer of " + b.count() + " elements");
            }
        }
    }

    // Each operation: its two entry points (blocking and non-blocking) and the one call of its algorithm.

    @Override
    public void barrier() {
        barrier(true);
    }

    @Override
    public Request ibarrier() {
        return barrier(false);
    }

    private Request barrier(boolean blocking) {
        return collective(blocking, "barrier", CallTracker.NO_PEER, () -> { },
                CollectiveOp.BARRIER, CollectiveAlgorithm.Barrier.class, unsized(),
                (a, ch, b) -> a.barrier(ch, b));
    }

    @Override
    public void bcast(Buffer buf, int root) {
        bcast(buf, root, true);
    }

    @Override
    public Request ibcast(Buffer buf, int root) {
        return bcast(buf, root, false);
    }

    private Request bcast(Buffer buf, int root, boolean blocking) {
        return collective(blocking, "bcast", root, () -> checkBcast(buf, root),
                CollectiveOp.BCAST, CollectiveAlgorithm.Bcast.class, sized(buf.byteLength()),
                (a, ch, b) -> a.bcast(ch, buf, root, b));
    }

    @Override
    public void multicast(Buffer buf, int root, int... members) {
        multicast(buf, root, members, true);
    }

    @Override
    public Request imulticast(Buffer buf, int root, int... members) {
        return multicast(buf, root, members, false);
    }

    private Request multicast(Buffer buf, int root, int[] members, boolean blocking) {
        return collective(blocking, "multicast", root, () -> checkMulticast(buf, root, members),
                CollectiveOp.MULTICAST, CollectiveAlgorithm.Multicast.class, multicastShape(buf, root, members),
                blocking ? null : withRoot(root, members),
                (a, ch, b) -> a.multicast(ch, buf, root, members.clone(), b));
    }

    @Override
    public void alltoall(Buffer send, Buffer recv) {
        alltoall(send, recv, true);
    }

    @Override
    public Request ialltoall(Buffer send, Buffer recv) {
        return alltoall(send, recv, false);
    }

    private Request alltoall(Buffer send, Buffer recv, boolean blocking) {
        Buffer from = unaliased(send, recv);
        return collective(blocking, "alltoall", CallTracker.NO_PEER, () -> checkAlltoall(from, recv),
                CollectiveOp.ALLTOALL, CollectiveAlgorithm.Alltoall.class, sized(from.byteLength() / group.size()),
                (a, ch, b) -> a.alltoall(ch, from, recv, b));
    }

    /**
     * {@code send}, or a copy of it when it shares memory with {@code recv}: an all-to-all writes blocks of recv
     * before it has sent every block of send, so in place (the same array for both) it sent what it had received.
     */
    private static Buffer unaliased(Buffer send, Buffer recv) {
        return send != null && recv != null && send.overlaps(recv) ? send.copy() : send;
    }

    @Override
    public void alltoallv(Buffer send, int[] sendCounts, int[] sendDispls, Buffer recv, int[] recvCounts,
            int[] recvDispls) {
        alltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls, true);
    }

    @Override
    public Request ialltoallv(Buffer send, int[] sendCounts, int[] sendDispls, Buffer recv, int[] recvCounts,
            int[] recvDispls) {
        return alltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls, false);
    }

    private Request alltoallv(Buffer send, int[] sendCounts, int[] sendDispls, Buffer recv, int[] recvCounts,
            int[] recvDispls, boolean blocking) {
        Buffer from = unaliased(send, recv);
        return collective(blocking, "alltoallv", CallTracker.NO_PEER,
                () -> checkAlltoallv(from, sendCounts, sendDispls, recv, recvCounts, recvDispls),
                CollectiveOp.ALLTOALLV, CollectiveAlgorithm.Alltoallv.class, unsized(),
                (a, ch, b) -> a.alltoallv(ch, from, sendCounts, sendDispls, recv, recvCounts, recvDispls, b));
    }

    @Override
    public void gather(Buffer send, Buffer recv, int root) {
        gather(send, recv, root, true);
    }

    @Override
    public Request igather(Buffer send, Buffer recv, int root) {
        return gather(send, recv, root, false);
    }

    private Request gather(Buffer send, Buffer recv0, int root, boolean blocking) {
        Buffer recv = rootsOnly(recv0, send, root);
        return collective(blocking, "gather", root, () -> checkGather(send, recv, root),
                CollectiveOp.GATHER, CollectiveAlgorithm.Gather.class, sized(send.byteLength()),
                (a, ch, b) -> a.gather(ch, send, recv, root, b));
    }

    /**
     * The buffer of a rooted collective that only the root uses (gather's and reduce's recv, scatter's send): where
     * the javadoc says "ignored", null stands for none, as in the v-variants (it was a NullPointerException from the
     * algorithm's runner); an empty buffer of {@code like}'s type takes its place.
     */
    private Buffer rootsOnly(Buffer b, Buffer like, int root) {
        return b == null && rank != root && like != null ? like.allocateLike(0) : b;
    }

    @Override
    public void gatherv(Buffer send, Buffer recv, int[] recvCounts, int[] displs, int root) {
        gatherv(send, recv, recvCounts, displs, root, true);
    }

    @Override
    public Request igatherv(Buffer send, Buffer recv, int[] recvCounts, int[] displs, int root) {
        return gatherv(send, recv, recvCounts, displs, root, false);
    }

    private Request gatherv(Buffer send, Buffer recv, int[] recvCounts, int[] displs, int root, boolean blocking) {
        return collective(blocking, "gatherv", root, () -> checkGatherv(send, recv, recvCounts, displs, root),
                CollectiveOp.GATHERV, CollectiveAlgorithm.Gatherv.class, unsized(),
                (a, ch, b) -> a.gatherv(ch, send, recv, recvCounts, displs, root, b));
    }

    @Override
    public void scatter(Buffer send, Buffer recv, int root) {
        scatter(send, recv, root, true);
    }

    @Override
    public Request iscatter(Buffer send, Buffer recv, int root) {
        return scatter(send, recv, root, false);
    }

    private Request scatter(Buffer send0, Buffer recv, int root, boolean blocking) {
        Buffer send = rootsOnly(send0, recv, root);
        return collective(blocking, "scatter", root, () -> checkScatter(send, recv, root),
                CollectiveOp.SCATTER, CollectiveAlgorithm.Scatter.class, sized(recv.byteLength()),
                (a, ch, b) -> a.scatter(ch, send, recv, root, b));
    }

    @Override
    public void scatterv(Buffer send, int[] sendCounts, int[] displs, Buffer recv, int root) {
        scatterv(send, sendCounts, displs, recv, root, true);
    }

    @Override
    public Request iscatterv(Buffer send, int[] sendCounts, int[] displs, Buffer recv, int root) {
        return scatterv(send, sendCounts, displs, recv, root, false);
    }

    private Request scatterv(Buffer send, int[] sendCounts, int[] displs, Buffer recv, int root, boolean blocking) {
        return collective(blocking, "scatterv", root, () -> checkScatterv(send, sendCounts, displs, recv, root),
                CollectiveOp.SCATTERV, CollectiveAlgorithm.Scatterv.class, unsized(),
                (a, ch, b) -> a.scatterv(ch, send, sendCounts, displs, recv, root, b));
    }

    @Override
    public void allgather(Buffer send, Buffer recv) {
        allgather(send, recv, true);
    }

    @Override
    public Request iallgather(Buffer send, Buffer recv) {
        return allgather(send, recv, false);
    }

    private Request allgather(Buffer send, Buffer recv, boolean blocking) {
        return collective(blocking, "allgather", CallTracker.NO_PEER, () -> checkAllgather(send, recv),
                CollectiveOp.ALLGATHER, CollectiveAlgorithm.Allgather.class, sized(send.byteLength()),
                (a, ch, b) -> a.allgather(ch, send, recv, b));
    }

    @Override
    public void allgatherv(Buffer send, Buffer recv, int[] recvCounts, int[] displs) {
        allgatherv(send, recv, recvCounts, displs, true);
    }

    @Override
    public Request iallgatherv(Buffer send, Buffer recv, int[] recvCounts, int[] displs) {
        return allgatherv(send, recv, recvCounts, displs, false);
    }

    private Request allgatherv(Buffer send, Buffer recv, int[] recvCounts, int[] displs, boolean blocking) {
        return collective(blocking, "allgatherv", CallTracker.NO_PEER,
                () -> checkAllgatherv(send, recv, recvCounts, displs),
                CollectiveOp.ALLGATHERV, CollectiveAlgorithm.Allgatherv.class, unsized(),
                (a, ch, b) -> a.allgatherv(ch, send, recv, recvCounts, displs, b));
    }

    @Override
    public void reduce(Buffer send, Buffer recv, Op op, int root) {
        reduce(send, recv, op, root, true);
    }

    @Override
    public Request ireduce(Buffer send, Buffer recv, Op op, int root) {
        return reduce(send, recv, op, root, false);
    }

    private Request reduce(Buffer send, Buffer recv0, Op op, int root, boolean blocking) {
        Buffer recv = rootsOnly(recv0, send, root);
        return collective(blocking, "reduce", root, () -> checkReduce(send, recv, op, root),
                CollectiveOp.REDUCE, CollectiveAlgorithm.Reduce.class, sized(send.byteLength()),
                (a, ch, b) -> a.reduce(ch, send, recv, op, root, b));
    }

    @Override
    public void allreduce(Buffer send, Buffer recv, Op op) {
        allreduce(send, recv, op, true);
    }

    @Override
    public Request iallreduce(Buffer send, Buffer recv, Op op) {
        return allreduce(send, recv, op, false);
    }

    private Request allreduce(Buffer send, Buffer recv, Op op, boolean blocking) {
        return collective(blocking, "allreduce", CallTracker.NO_PEER, () -> checkAllreduce(send, recv, op),
                CollectiveOp.ALLREDUCE, CollectiveAlgorithm.Allreduce.class, sized(send.byteLength()),
                (a, ch, b) -> a.allreduce(ch, send, recv, op, b));
    }

    @Override
    public void reduceScatter(Buffer send, Buffer recv, int[] recvCounts, Op op) {
        reduceScatter(send, recv, recvCounts, op, true);
    }

    @Override
    public Request ireduceScatter(Buffer send, Buffer recv, int[] recvCounts, Op op) {
        return reduceScatter(send, recv, recvCounts, op, false);
    }

    private Request reduceScatter(Buffer send, Buffer recv, int[] recvCounts, Op op, boolean blocking) {
        return collective(blocking, "reduceScatter", CallTracker.NO_PEER,
                () -> checkReduceScatter(send, recv, recvCounts, op),
                CollectiveOp.REDUCE_SCATTER, CollectiveAlgorithm.ReduceScatter.class, sized(send.byteLength()),
                (a, ch, b) -> a.reduceScatter(ch, send, recv, recvCounts.clone(), op, b));
    }

    @Override
    public void reduceScatterBlock(Buffer send, Buffer recv, Op op) {
        reduceScatterBlock(send, recv, op, true);
    }

    @Override
    public Request ireduceScatterBlock(Buffer send, Buffer recv, Op op) {
        return reduceScatterBlock(send, recv, op, false);
    }

    private Request reduceScatterBlock(Buffer send, Buffer recv, Op op, boolean blocking) {
        return collective(blocking, "reduceScatterBlock", CallTracker.NO_PEER,
                () -> checkReduceScatterBlock(send, recv, op),
                CollectiveOp.REDUCE_SCATTER_BLOCK, CollectiveAlgorithm.ReduceScatterBlock.class,
                sized(recv.byteLength()),
                (a, ch, b) -> a.reduceScatterBlock(ch, send, recv, op, b));
    }

    @Override
    public void scan(Buffer send, Buffer recv, Op op) {
        scan(send, recv, op, true);
    }

    @Override
    public Request iscan(Buffer send, Buffer recv, Op op) {
        return scan(send, recv, op, false);
    }

    private Request scan(Buffer send, Buffer recv, Op op, boolean blocking) {
        return collective(blocking, "scan", CallTracker.NO_PEER, () -> checkScan(send, recv, op, "scan"),
                CollectiveOp.SCAN, CollectiveAlgorithm.Scan.class, sized(send.byteLength()),
                (a, ch, b) -> a.scan(ch, send, recv, op, b));
    }

    @Override
    public void exscan(Buffer send, Buffer recv, Op op) {
        exscan(send, recv, op, true);
    }

    @Override
    public Request iexscan(Buffer send, Buffer recv, Op op) {
        return exscan(send, recv, op, false);
    }

    private Request exscan(Buffer send, Buffer recv, Op op, boolean blocking) {
        return collective(blocking, "exscan", CallTracker.NO_PEER, () -> checkScan(send, recv, op, "exscan"),
                CollectiveOp.EXSCAN, CollectiveAlgorithm.Exscan.class, sized(send.byteLength()),
                (a, ch, b) -> a.exscan(ch, send, recv, op, b));
    }

    private void checkReduceScatter(Buffer send, Buffer recv, int[] recvCounts, Op op) {
        Reductions.checkDefined(op, send.type());
        checkSameType(send, recv, "reduceScatter");
        if (recvCounts == null || recvCounts.length != group.size()) {
            throw new IllegalArgumentException("reduceScatter: recvCounts has "
                    + (recvCounts == null ? "null" : recvCounts.length + " entries") + " (expected: "
                    + group.size() + ", one per rank)");
        }
        long total = 0;
        for (int i = 0; i < recvCounts.length; i++) {
            if (recvCounts[i] < 0) {
                throw new IllegalArgumentException("reduceScatter: recvCounts[" + i + "]=" + recvCounts[i]
                        + " (expected: >= 0)");
            }
            total += recvCounts[i];
        }
        checkCount(send, total, "reduceScatter send buffer");
        checkCount(recv, recvCounts[rank], "reduceScatter receive buffer");
    }

    private void checkReduceScatterBlock(Buffer send, Buffer recv, Op op) {
        Reductions.checkDefined(op, send.type());
        checkSameType(send, recv, "reduceScatterBlock");
        checkCount(send, (long) recv.count() * group.size(), "reduceScatterBlock send buffer");
    }

    private void checkScan(Buffer send, Buffer recv, Op op, String what) {
        Reductions.checkDefined(op, send.type());
        checkSameType(send, recv, what);
        checkCount(recv, send.count(), what + " receive buffer");
    }

    /** Non-blocking collectives over the whole communicator so far; every rank makes them in the same order (as MPI requires). */
    private int nonBlockingCalls;
    /**
     * Per peer: the non-blocking multicasts so far whose group held both this rank and that peer (null
     * until this rank's first). Ranks outside a group never see its call, so a multicast cannot take a
     * number every rank agrees on; but two ranks see the calls they share in the same order.
     */
    private int[] sharedMulticasts;

    /** Tags of collective algorithms stay below this; a non-blocking call's tags are shifted past it. */
    private static final int NON_BLOCKING_TAG_STRIDE = 1 << 16;
    private static final int NON_BLOCKING_TAG_SLOTS = 30_000;

    /**
     * The collective channel with tags of their own for the next non-blocking call, so it never meets a
     * blocking collective or another call (up to 30,000 calls between two ranks may be outstanding at
     * once). A message between this rank and a peer is numbered by the non-blocking calls both made:
     * the whole-communicator calls plus the multicasts whose group held both; {@code multicastRanks}
     * (a multicast's root and members) names the ranks of this call when it is a multicast. {@code ranInstead}
     * hears of an algorithm that ran in the chosen one's place (null: nobody asks).
     */
    private CollChannel nonBlockingChannel(int[] multicastRanks, Consumer<CollectiveAlgorithm> ranInstead) {
        int wholeCalls = multicastRanks == null ? nonBlockingCalls++ : nonBlockingCalls;
        int[] shared = null;
        if (multicastRanks != null) {
            if (sharedMulticasts == null) {
                sharedMulticasts = new int[group.size()];
            }
            shared = sharedMulticasts.clone();
            boolean[] counted = new boolean[group.size()];
            for (int r : multicastRanks) {
                if (!counted[r]) {
                    counted[r] = true;
                    sharedMulticasts[r]++;
                }
            }
        } else if (sharedMulticasts != null) {
            shared = sharedMulticasts.clone();
        }
        int[] sharedWithPeer = shared;
        return new Channel() {
            @Override
            public Request isend(Buffer buf, int dest, int tag) {
                return super.isend(buf, dest, tag + tagOffset(dest));
            }

            @Override
            public void ranInstead(CollectiveAlgorithm actual) {
                if (ranInstead != null) {
                    ranInstead.accept(actual);
                }
            }

            @Override
            public Request irecv(Buffer buf, int source, int tag) {
                if (source == ANY_SOURCE) {
                    throw new IllegalArgumentException("a non-blocking collective cannot receive from ANY_SOURCE");
                }
                return super.irecv(buf, source, tag + tagOffset(source));
            }

            private int tagOffset(int peer) {
                checkRank(peer, "peer");
                int calls = wholeCalls + (sharedWithPeer == null ? 0 : sharedWithPeer[peer]);
                return (1 + Math.floorMod(calls, NON_BLOCKING_TAG_SLOTS)) * NON_BLOCKING_TAG_STRIDE;
            }
        };
    }

    private void checkBcast(Buffer buf, int root) {
        checkRoot(root);
    }

    private void checkMulticast(Buffer buf, int root, int... members) {
        checkRoot(root);
        boolean[] seen = new boolean[group.size()];
        for (int i = 0; i < members.length; i++) {
            checkRank(members[i], "group[" + i + "]");
            if (seen[members[i]]) {
                throw new IllegalArgumentException("rank " + members[i] + " listed twice in multicast group "
                        + Arrays.toString(members));
            }
            seen[members[i]] = true;
        }
        if (rank != root && !seen[rank]) {
            throw new IllegalArgumentException("rank " + rank + " called multicast but is neither the root (" + root
                    + ") nor in the group " + Arrays.toString(members));
        }
    }

    private static int[] withRoot(int root, int[] members) {
        int[] ranks = Arrays.copyOf(members, members.length + 1);
        ranks[members.length] = root;
        return ranks;
    }

    private void checkAlltoall(Buffer send, Buffer recv) {
        checkSameType(send, recv, "alltoall");
        if (send.count() % group.size() != 0) {
            throw new IllegalArgumentException("alltoall send buffer has " + send.count()
                    + " elements, not a multiple of the communicator size " + group.size());
        }
        checkCount(recv, send.count(), "alltoall receive buffer");
    }

    private void checkAlltoallv(Buffer send, int[] sendCounts, int[] sendDispls, Buffer recv, int[] recvCounts,
            int[] recvDispls) {
        checkSameType(send, recv, "alltoallv");
        checkLayout(send, sendCounts, sendDispls, "alltoallv send");
        checkLayout(recv, recvCounts, recvDispls, "alltoallv receive");
    }

    private void checkGather(Buffer send, Buffer recv, int root) {
        checkRoot(root);
        if (rank == root) {
            checkSameType(send, recv, "gather");
            checkCount(recv, (long) send.count() * group.size(), "gather receive buffer at root");
        }
    }

    private void checkGatherv(Buffer send, Buffer recv, int[] recvCounts, int[] displs, int root) {
        checkRoot(root);
        if (rank == root) {
            checkSameType(send, recv, "gatherv");
            checkLayout(recv, recvCounts, displs, "gatherv receive");
            if (recvCounts[rank] != send.count()) {
                throw new IllegalArgumentException("gatherv: root sends " + send.count() + " elements but recvCounts["
                        + rank + "]=" + recvCounts[rank]);
            }
        }
    }

    private void checkScatter(Buffer send, Buffer recv, int root) {
        checkRoot(root);
        if (rank == root) {
            checkSameType(send, recv, "scatter");
            checkCount(send, (long) recv.count() * group.size(), "scatter send buffer at root");
        }
    }

    private void checkScatterv(Buffer send, int[] sendCounts, int[] displs, Buffer recv, int root) {
        checkRoot(root);
        if (rank == root) {
            checkSameType(send, recv, "scatterv");
            checkLayout(send, sendCounts, displs, "scatterv send");
        }
    }

    private void checkAllgather(Buffer send, Buffer recv) {
        checkSameType(send, recv, "allgather");
        checkCount(recv, (long) send.count() * group.size(), "allgather receive buffer");
    }

    private void checkAllgatherv(Buffer send, Buffer recv, int[] recvCounts, int[] displs) {
        checkSameType(send, recv, "allgatherv");
        checkLayout(recv, recvCounts, displs, "allgatherv receive");
        if (recvCounts[rank] != send.count()) {
            throw new IllegalArgumentException("allgatherv: rank " + rank + " sends " + send.count()
                    + " elements but recvCounts[" + rank + "]=" + recvCounts[rank]);
        }
    }

    private void checkReduce(Buffer send, Buffer recv, Op op, int root) {
        checkRoot(root);
        Reductions.checkDefined(op, send.type());
        if (rank == root) {
            checkSameType(send, recv, "reduce");
            checkCount(recv, send.count(), "reduce receive buffer at root");
        }
    }

    private void checkAllreduce(Buffer send, Buffer recv, Op op) {
        Reductions.checkDefined(op, send.type());
        checkSameType(send, recv, "allreduce");
        checkCount(recv, send.count(), "allreduce receive buffer");
    }

    @Override
    public String toString() {
        return "Comm[rank " + rank + " of " + group.size() + ", context " + context + "]";
    }

    /** Point-to-point on this communicator's collective context. */
    private class Channel implements CollChannel {
        @Override
        public int rank() {
            return rank;
        }

        @Override
        public int size() {
            return group.size();
        }

        @Override
        public Comm comm() {
            return CommImpl.this;
        }

        @Override
        public Request isend(Buffer buf, int dest, int tag) {
            checkRank(dest, "dest");
            return engine.isend(buf, group.worldRank(dest), context + 1, tag, group);
        }

        @Override
        public Request irecv(Buffer buf, int source, int tag) {
            return engine.irecv(buf, worldSource(source), context + 1, tag, group);
        }

        @Override
        public CollectiveRegistry registry() {
            return CommImpl.this.registry();
        }

        @Override
        public void ranInstead(CollectiveAlgorithm actual) {
            CommImpl.this.ranInstead = actual;
        }
    }

    private CollectiveRegistry registry() {
        return registry != null ? registry : rc.registry();
    }
}
