package io.mpirunj.collectives.runner;

import io.mpirunj.Buffer;
import io.mpirunj.MpiException;
import io.mpirunj.Request;
import io.mpirunj.Status;
import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.ProgramAnalysis.Location;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.runtime.spi.CollChannel;
import java.util.Arrays;

/**
 * Executes one rank's program of any {@link Schedule} for real, on a {@link CollChannel}, with the
 * dependencies of the schedule's one {@link io.mpirunj.collectives.schedule.ProgramAnalysis} (the
 * simulator and the verifier use the same):
 *
 * <ol>
 *   <li>Receives are posted as non-blocking receives in program order, each as soon as the earlier
 *       instructions that read or write its bytes have completed (for the usual schedules, whose
 *       receives land in fresh bytes: all up front). So the n-th message from s matches the n-th
 *       receive naming s (MPI's non-overtaking order per source and tag).</li>
 *   <li>Sends are issued as non-blocking sends in program order; each one waits only for the
 *       instructions that wrote the bytes it carries, never for unrelated ones.</li>
 *   <li>Local COPY/REDUCE operations run in program order once their inputs are held and nothing
 *       still reads or writes their target.</li>
 *   <li>{@code RECV_FIRST_OF} posts one receive per parent, each into its own temporary buffer; the
 *       first to complete successfully is copied into place (exactly once), the others are still
 *       received (drained and discarded), so nothing stays posted and matching stays aligned.
 *       A copy that fails (its parent or link lost) is skipped: the receive fails only when every
 *       copy has failed, and a losing copy's failure is ignored, as its data was not needed. On the
 *       sending side, a send that fails to a receiver that also takes the data from another parent
 *       is not an error either (the live fabric's {@code drop:A-B} fault loses a message as a failure
 *       of exactly its send and receive).</li>
 *   <li>All-to-all blocks in transit through a rank live in a scratch buffer the runner allocates
 *       per execution ({@link io.mpirunj.collectives.schedule.ProgramAnalysis#scratchBytes}).</li>
 *   <li>It returns when every instruction of this rank has completed.</li>
 * </ol>
 * Between these steps the runner waits for whichever of its outstanding requests completes first,
 * so no ready instruction waits behind an unrelated one. An {@link Execution} can also be advanced
 * without blocking ({@link Execution#progress()}), which is how a non-blocking collective runs.
 *
 * <h2>Buffer layout</h2>
 * Locations are byte ranges of the {@link ScheduleBuffers}; byte offset {@code x} becomes element
 * {@code x / elementBytes} (rounded down). For a byte buffer this is exact. For wider elements a
 * segment boundary that falls inside an element moves to that element's start, so the segments still
 * tile the buffer, a few neighbouring segments may differ by one element from their nominal size,
 * and a segment shorter than an element can become an empty (0-byte) message, which is still sent
 * and received so matching stays aligned. Builders that segment by bytes need not know the element
 * type. With counts and displacements (alltoallv), an all-to-all block is where and as long as they say;
 * so is a range of a buffer that has them, in a "v" schedule built with one-byte blocks (gatherv,
 * scatterv, allgatherv): range {@code [i, i + 1)} is block i. A receive into such a block accepts a
 * message up to its count (scatterv's receive count is an upper bound), every other receive exactly
 * its size.
 *
 * <h2>Failures</h2>
 * A failed operation (e.g. {@link io.mpirunj.RankFailedException}) is rethrown unchanged as soon as
 * this rank needs its result. The runner cancels nothing: operations still in flight stay with the
 * matching engine (the runtime's request API has no cancel), and, as in MPI, the communicator is
 * not usable for collectives afterwards. A received message of the wrong size (ranks that built
 * different schedules, e.g. from different models or counts) fails with an {@link MpiException}
 * naming the instruction.
 *
 * <h2>Ordering of consecutive collectives</h2>
 * One tag serves a whole collective (every segment, every step). Two consecutive collectives with
 * the same tag on one communicator cannot mix: both sides post and send in program order, and MPI's
 * non-overtaking rule keeps messages of one (source, tag) in order, so the k-th message from s is
 * always matched by the k-th receive naming s — provided every rank runs the same schedule.
 */
public final class ScheduleRunner {

    private ScheduleRunner() {
    }

    /**
     * Runs this rank's program of a bcast or multicast {@code schedule} on {@code buf}.
     *
     * @param schedule     a schedule over {@code participants.length} ranks
     * @param ch           the channel; {@code ch.rank()} must be one of {@code participants}
     * @param buf          the root's data (root) or where it lands (others); {@code schedule.messageBytes()} bytes
     * @param participants schedule rank -> communicator rank
     * @param tag          the tag for every message of this collective
     */
    public static void run(Schedule schedule, CollChannel ch, Buffer buf, int[] participants, int tag) {
        run(CompiledSchedule.of(schedule), ch, buf, participants, tag);
    }

    /** As {@link #run(Schedule, CollChannel, Buffer, int[], int)}, reusing the compiled plan. */
    public static void run(CompiledSchedule compiled, CollChannel ch, Buffer buf, int[] participants, int tag) {
        run(compiled, ch, buf, participants, indexOf(compiled.schedule(), ch, participants), tag);
    }

    /**
     * As {@link #run(CompiledSchedule, CollChannel, Buffer, int[], int)} for a caller that already
     * knows its schedule rank: {@code participants[me]} must be {@code ch.rank()}. Saves the search.
     */
    public static void run(CompiledSchedule compiled, CollChannel ch, Buffer buf, int[] participants, int me,
            int tag) {
        checkBuffer(compiled.schedule(), buf);
        run(compiled, ch, ScheduleBuffers.of(buf), participants, me, tag);
    }

    /** A rooted schedule moves exactly its {@code messageBytes}: {@code buf} must hold that many. */
    public static void checkBuffer(Schedule schedule, Buffer buf) {
        if (schedule.collective().rooted() && schedule.messageBytes() != buf.byteLength()) {
            throw new IllegalArgumentException("buffer of " + buf.byteLength() + " bytes (" + buf + ") for " + schedule
                    + " (expected: messageBytes=" + schedule.messageBytes() + ")");
        }
    }

    /**
     * Runs this rank's program of any schedule on {@code buffers}, blocking until it has completed. Its
     * scratch memory comes from this thread's {@link ScratchCache} and goes back there when every
     * instruction has completed (after a failure it is dropped: a receive may still be writing to it).
     */
    public static void run(CompiledSchedule compiled, CollChannel ch, ScheduleBuffers buffers, int[] participants,
            int me, int tag) {
        Execution e = execution(compiled, ch, buffers, participants, me, tag);
        e.scratch = ScratchCache.take(buffers.recv().type(), e.scratchElements());
        e.complete();
        ScratchCache.give(e.scratch);
    }

    /**
     * Starts this rank's program: posts what is ready at once and returns; the caller advances it
     * with {@link Execution#progress()} or finishes it with {@link Execution#complete()}.
     */
    public static Execution start(CompiledSchedule compiled, CollChannel ch, ScheduleBuffers buffers,
            int[] participants, int me, int tag) {
        Execution e = execution(compiled, ch, buffers, participants, me, tag);
        e.progress();
        return e;
    }

    private static Execution execution(CompiledSchedule compiled, CollChannel ch, ScheduleBuffers buffers,
            int[] participants, int me, int tag) {
        Schedule schedule = compiled.schedule();
        checkLength(schedule, participants);
        if (me < 0 || me >= participants.length || participants[me] != ch.rank()) {
            throw new IllegalArgumentException("schedule rank " + me + " is not rank " + ch.rank()
                    + " in the participants " + Arrays.toString(participants) + " of " + schedule);
        }
        return new Execution(schedule, compiled.plan(me), ch, buffers, participants, tag);
    }

    private static void checkLength(Schedule schedule, int[] participants) {
        if (participants.length != schedule.ranks()) {
            throw new IllegalArgumentException("participants has " + participants.length + " ranks (expected: "
                    + schedule.ranks() + " for " + schedule + ")");
        }
    }

    /** Schedule rank of {@code ch.rank()} among {@code participants}. */
    public static int indexOf(Schedule schedule, CollChannel ch, int[] participants) {
        checkLength(schedule, participants);
        for (int i = 0; i < participants.length; i++) {
            if (participants[i] == ch.rank()) {
                return i;
            }
        }
        throw new IllegalArgumentException("rank " + ch.rank() + " is not among the participants "
                + Arrays.toString(participants) + " of " + schedule);
    }

    /**
     * One rank's execution of one schedule. Not thread-safe: one thread at a time advances it (the
     * caller's, or whoever progresses a non-blocking collective).
     */
    public static final class Execution {
        private final Schedule schedule;
        private final RankPlan plan;
        private final RankPlan.Step[] steps;
        private final CollChannel ch;
        private final ScheduleBuffers buffers;
        private final int[] participants;
        private final int tag;
        private final int elementBytes;
        private Buffer scratch;
        /** Per step: one request per parent (receives), the send request, or null. */
        private final Request[][] requests;
        /** Per receive step: the temporary buffer of each parent's copy, or null when it lands in place. */
        private final Buffer[][] landing;
        /** Per receive step: which parent's copy delivered, or -1. */
        private final int[] deliveredBy;
        /** Per step: its bytes are in place (receives, local ops) / it has been issued (sends). */
        private final boolean[] done;
        /** Per step: nothing of it is in flight any more (sends: request complete; receives: every copy in). */
        private final boolean[] complete;
        /** Per RECV_FIRST_OF step: its copies that failed (their parent or link lost); null while none has. */
        private boolean[][] lostCopies;
        private MpiException firstLoss;
        private int nextSend;
        private int nextReceive;
        private int nextLocal;
        private int remaining;

        Execution(Schedule schedule, RankPlan plan, CollChannel ch, ScheduleBuffers buffers, int[] participants,
                int tag) {
            this.schedule = schedule;
            this.plan = plan;
            this.steps = plan.steps;
            this.ch = ch;
            this.buffers = buffers;
            this.participants = participants;
            this.tag = tag;
            this.elementBytes = buffers.recv().type().bytes();
            this.requests = new Request[steps.length][];
            this.landing = new Buffer[steps.length][];
            this.deliveredBy = new int[steps.length];
            Arrays.fill(deliveredBy, -1);
            this.done = new boolean[steps.length];
            this.complete = new boolean[steps.length];
            this.remaining = steps.length;
            nextSend = advance(0, true, false);
            nextReceive = advance(0, false, true);
            nextLocal = advance(0, false, false);
        }

        /** True once every instruction of this rank has completed. */
        public boolean isComplete() {
            return remaining == 0;
        }

        /**
         * Does everything that can be done now without blocking: posts ready receives, issues ready
         * sends, runs ready local operations and takes in completed requests. Returns
         * {@link #isComplete()}.
         */
        public boolean progress() {
            boolean moved = true;
            while (moved && remaining > 0) {
                moved = false;
                while (nextReceive < steps.length && ready(steps[nextReceive].hazards, complete)) {
                    post(nextReceive);
                    nextReceive = advance(nextReceive + 1, false, true);
                    moved = true;
                }
                while (nextSend < steps.length && ready(steps[nextSend].providers, done)) {
                    issue(nextSend);
                    nextSend = advance(nextSend + 1, true, false);
                    moved = true;
                }
                while (nextLocal < steps.length && ready(steps[nextLocal].providers, done)
                        && ready(steps[nextLocal].hazards, complete)) {
                    runLocal(nextLocal);
                    nextLocal = advance(nextLocal + 1, false, false);
                    moved = true;
                }
                for (int i = 0; i < steps.length; i++) {
                    if (!complete[i] && requests[i] != null) {
                        moved |= takeIn(i);
                    }
                }
            }
            return remaining == 0;
        }

        /** Runs to the end, blocking while nothing can be done. */
        public void complete() {
            while (!progress()) {
                awaitAny();
            }
        }

        /** The outstanding requests of this execution (what a progress engine may wait on). */
        public Request[] outstanding() {
            int n = 0;
            for (int i = 0; i < steps.length; i++) {
                n += waitedCopies(i);
            }
            Request[] out = new Request[n];
            int at = 0;
            for (int i = 0; i < steps.length; i++) {
                if (waitedCopies(i) > 0) {
                    for (int c = 0; c < requests[i].length; c++) {
                        if (c != deliveredBy[i] && !isLost(i, c)) {
                            out[at++] = requests[i][c];
                        }
                    }
                }
            }
            return out;
        }

        /** Requests of step i still to wait for: a delivered or lost copy is in already (waiting on it again would spin). */
        private int waitedCopies(int i) {
            if (complete[i] || requests[i] == null) {
                return 0;
            }
            int n = 0;
            for (int c = 0; c < requests[i].length; c++) {
                if (c != deliveredBy[i] && !isLost(i, c)) {
                    n++;
                }
            }
            return n;
        }

        private void awaitAny() {
            Request[] waiting = outstanding();
            if (waiting.length == 0) {
                throw new IllegalStateException(schedule + ": rank " + ch.rank() + " (schedule rank " + plan.rank
                        + ") cannot progress and waits for nothing (a schedule the analysis should have refused)");
            }
            // One request, or nothing left to start (any order of waiting is as good): the request's own
            // wait spins before parking, which is what short messages need.
            boolean allStarted = nextSend == steps.length && nextReceive == steps.length && nextLocal == steps.length;
            try {
                if (waiting.length == 1 || allStarted) {
                    waiting[0].await();
                } else if (!pollAny(waiting, ch.waitPolicy().pollNanos())) {
                    Request.waitAny(waiting);
                }
            } catch (MpiException e) {
                // takeIn decides: a lost redundant copy is skipped, anything else is rethrown there
            }
        }

        /**
         * Polls, yielding between turns, until one of {@code waiting} completes or {@code pollNanos}
         * pass; true if one did. A request's own wait does the same before it parks: parking at once
         * (as waitAny does) costs a wake-up per step, which a message of a few KiB does not amortise.
         * But not when ranks outnumber cores (the policy's budget is 0 then): a polling rank keeps
         * the core from the rank it waits for, and it does not read its sockets meanwhile when its
         * waiters drive the transport (waitAny does).
         */
        private static boolean pollAny(Request[] waiting, long pollNanos) {
            if (pollNanos <= 0) {
                return false;
            }
            long deadline = System.nanoTime() + pollNanos;
            do {
                for (Request r : waiting) {
                    if (r.test()) {
                        return true;
                    }
                }
                Thread.yield();
            } while (System.nanoTime() - deadline < 0);
            return false;
        }

        /** The next step index >= from that is a send (sends), a receive (receives), or a local op. */
        private int advance(int from, boolean sends, boolean receives) {
            int i = from;
            while (i < steps.length) {
                RankPlan.Step s = steps[i];
                if (sends ? s.isSend() : receives ? s.isReceive() : !s.isSend() && !s.isReceive()) {
                    break;
                }
                i++;
            }
            return i;
        }

        private static boolean ready(int[] deps, boolean[] state) {
            for (int d : deps) {
                if (!state[d]) {
                    return false;
                }
            }
            return true;
        }

        private void post(int i) {
            RankPlan.Step s = steps[i];
            Request[] copies = new Request[s.peers.length];
            if (s.locations.length == 1 && !s.firstOf()) {
                copies[0] = ch.irecv(view(s.locations[0]), participants[s.peers[0]], tag);
            } else {
                Buffer[] into = new Buffer[copies.length];
                int count = elements(s.locations);
                for (int c = 0; c < copies.length; c++) {
                    into[c] = buffers.recv().allocateLike(count);
                    copies[c] = ch.irecv(into[c], participants[s.peers[c]], tag);
                }
                landing[i] = into;
            }
            requests[i] = copies;
        }

        private void issue(int i) {
            RankPlan.Step s = steps[i];
            Buffer data = s.locations.length == 1 ? view(s.locations[0]) : pack(s.locations);
            requests[i] = new Request[] {ch.isend(data, participants[s.peers[0]], tag)};
            done[i] = true;
        }

        private void runLocal(int i) {
            RankPlan.Step s = steps[i];
            Buffer from = view(s.locations[0]);
            Buffer into = view(s.target);
            if (s.op == null) {
                into.copyFrom(from);
            } else {
                s.op.apply(from, into);
            }
            done[i] = true;
            finish(i);
        }

        /** Takes in whatever of step i's requests completed; returns true when something changed. */
        private boolean takeIn(int i) {
            Request[] copies = requests[i];
            RankPlan.Step s = steps[i];
            if (s.isSend()) {
                if (!copies[0].test()) {
                    return false;
                }
                try {
                    copies[0].await(); // rethrows a failure
                } catch (MpiException e) {
                    if (!receiverHasAnotherCopy(s)) {
                        throw e;
                    }
                    // TTCC: the child takes the other tree's copy; its own receive fails if none comes
                }
                finish(i);
                return true;
            }
            boolean changed = false;
            if (deliveredBy[i] < 0) {
                for (int c = 0; c < copies.length; c++) {
                    if (isLost(i, c) || !copies[c].test()) {
                        continue;
                    }
                    Status status;
                    try {
                        status = copies[c].await();
                    } catch (MpiException e) {
                        if (copies.length == 1) {
                            throw e;
                        }
                        markLost(i, c, e); // throws once every copy is lost
                        changed = true;
                        continue;
                    }
                    checkSize(s, c, status);
                    if (landing[i] != null) {
                        unpack(s.locations, landing[i][c]);
                    }
                    deliveredBy[i] = c;
                    done[i] = true;
                    changed = true;
                    break;
                }
                if (deliveredBy[i] < 0) {
                    return changed;
                }
            }
            for (int c = 0; c < copies.length; c++) {
                if (c != deliveredBy[i] && !isLost(i, c)) {
                    if (!copies[c].test()) {
                        return changed;
                    }
                    try {
                        checkSize(s, c, copies[c].await()); // drained; its data is dropped
                    } catch (MpiException e) {
                        lost(i)[c] = true; // a redundant copy lost on the way: the data came by the other
                    }
                }
            }
            finish(i);
            return true;
        }

        /** True if the receiver of send step {@code s} receives this data as RECV_FIRST_OF from another parent too. */
        private boolean receiverHasAnotherCopy(RankPlan.Step s) {
            int to = s.peers[0];
            for (io.mpirunj.collectives.schedule.Instruction in : schedule.program(to)) {
                if (in.isReceive() && in.peerCount() > 1) {
                    for (int q : in.peers()) {
                        if (q == plan.rank) {
                            return true;
                        }
                    }
                }
            }
            return false;
        }

        /** Per receive step with several copies: which copies failed (created on the first failure). */
        private boolean[] lost(int i) {
            if (lostCopies == null) {
                lostCopies = new boolean[steps.length][];
            }
            if (lostCopies[i] == null) {
                lostCopies[i] = new boolean[requests[i].length];
            }
            return lostCopies[i];
        }

        private boolean isLost(int i, int copy) {
            return lostCopies != null && lostCopies[i] != null && lostCopies[i][copy];
        }

        /** Copy {@code copy} of receive step i failed with {@code e}; rethrows the first failure once all have. */
        private void markLost(int i, int copy, MpiException e) {
            boolean[] failed = lost(i);
            failed[copy] = true;
            if (firstLoss == null) {
                firstLoss = e;
            }
            for (boolean f : failed) {
                if (!f) {
                    return;
                }
            }
            throw firstLoss;
        }

        private void finish(int i) {
            complete[i] = true;
            remaining--;
        }

        private void checkSize(RankPlan.Step s, int copy, Status status) {
            long expected = 0;
            for (Location l : s.locations) {
                expected += view(l).byteLength();
            }
            // A block laid out by counts receives at most its count (MPI: scatterv's receive count bounds it).
            boolean upTo = s.locations.length == 1 && landing[s.index] == null
                    && buffers.displs(s.locations[0].role()) != null;
            if (upTo ? status.byteCount() > expected : status.byteCount() != expected) {
                throw new MpiException("rank " + ch.rank() + " (schedule rank " + plan.rank + ") of " + schedule
                        + ": instruction #" + s.index + " " + schedule.program(plan.rank).get(s.index)
                        + " got " + status.byteCount() + " bytes from rank " + participants[s.peers[copy]]
                        + " (expected: " + expected + "); do all ranks build the same schedule (same count, root,"
                        + " group and model)? (--check-collectives names the call where the ranks differ)");
            }
        }

        /** Elements of this rank's scratch buffer (in the receive buffer's type). */
        int scratchElements() {
            return (int) ((plan.scratchBytes + elementBytes - 1) / elementBytes);
        }

        /** The elements of the buffer a location names. */
        private Buffer view(Location l) {
            Buffer whole;
            if (l.role() == Block.Role.SCRATCH) {
                if (scratch == null) {
                    scratch = buffers.recv().allocateLike(scratchElements());
                }
                whole = scratch;
            } else {
                whole = buffers.buffer(l.role());
            }
            int[] displs = buffers.displs(l.role());
            if (displs != null) {
                return whole.slice(displs[laidOutBlock(l)], buffers.counts(l.role())[laidOutBlock(l)]);
            }
            // Each buffer in its own elements: a rank may pass an unused buffer of another type.
            int eb = whole.type().bytes();
            int first = (int) (l.start() / eb);
            return whole.slice(first, (int) (l.end() / eb) - first);
        }

        /**
         * The block a location names in a buffer laid out by counts and displacements: an all-to-all
         * block's index, or for a range (a "v" schedule, built with one-byte blocks) its offset.
         */
        private int laidOutBlock(Location l) {
            if (l.block() >= 0) {
                return l.block();
            }
            if (l.bytes() != 1) {
                throw new IllegalStateException(schedule + ": range " + l + " of a buffer laid out by counts"
                        + " (expected: one-byte ranges, [i, i+1) naming block i)");
            }
            return (int) l.start();
        }

        private int elements(Location[] locations) {
            int n = 0;
            for (Location l : locations) {
                n += view(l).count();
            }
            return n;
        }

        private Buffer pack(Location[] locations) {
            Buffer out = buffers.recv().allocateLike(elements(locations));
            int at = 0;
            for (Location l : locations) {
                Buffer part = view(l);
                out.slice(at, part.count()).copyFrom(part);
                at += part.count();
            }
            return out;
        }

        private void unpack(Location[] locations, Buffer from) {
            int at = 0;
            for (Location l : locations) {
                Buffer part = view(l);
                part.copyFrom(from.slice(at, part.count()));
                at += part.count();
            }
        }
    }
}
