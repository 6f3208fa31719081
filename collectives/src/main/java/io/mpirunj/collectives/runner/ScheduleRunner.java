package io.mpirunj.collectives.runner;

import io.mpirunj.Buffer;
import io.mpirunj.MpiException;
import io.mpirunj.Request;
import io.mpirunj.Status;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.runtime.spi.CollChannel;
import java.util.Arrays;

/**
 * Executes one rank's program of a {@link Schedule} for real, on a {@link CollChannel}, with the
 * semantics the simulator and the verifier assume (see {@link Schedule}):
 *
 * <ol>
 *   <li>Every receive is posted up front, in program order, so the n-th message from s matches the
 *       n-th receive naming s (MPI's non-overtaking order per source and tag), and no rendezvous
 *       send can wait on a receive that is not posted yet.</li>
 *   <li>Sends are issued as non-blocking sends in program order; each one waits only for the
 *       receives that deliver the blocks it carries, never for unrelated ones.</li>
 *   <li>{@code RECV_FIRST_OF} posts one receive per parent, each into its own scratch buffer; the
 *       first to complete successfully is copied into the user buffer (exactly once), the others are
 *       still received (drained and discarded), so nothing stays posted and matching stays aligned.
 *       A copy that fails (its parent or link lost) is skipped: the receive fails only when every
 *       copy has failed, and a losing copy's failure is ignored, as its data was not needed. (A link
 *       that silently never delivers would still hold the drain: that needs the fabric's fault
 *       model, issue 14.)</li>
 *   <li>It returns when every send and receive of this rank has completed.</li>
 * </ol>
 *
 * <h2>Buffer layout</h2>
 * The schedule's {@code messageBytes} must equal {@code buf.byteLength()}. Blocks are byte ranges
 * (the whole buffer, or {@code [offset, offset + length)} segments); they are moved as element
 * slices of {@code buf}, byte offset {@code x} becoming element {@code x / elementBytes} (rounded
 * down). For a byte buffer this is exact. For wider elements a segment boundary that falls inside an
 * element moves to that element's start, so the segments still tile the buffer, a few neighbouring
 * segments may differ by one element from their nominal size, and a segment shorter than an element
 * can become an empty (0-byte) message, which is still sent and received so matching stays aligned.
 * Builders that segment by bytes need not know the element type.
 *
 * <h2>Failures</h2>
 * A failed operation (e.g. {@link io.mpirunj.RankFailedException}) is rethrown unchanged as soon as
 * this rank needs its result. The runner cancels nothing: operations still in flight stay with the
 * matching engine (the runtime's request API has no cancel), and, as in MPI, the communicator is
 * not usable for collectives afterwards. A received message of the wrong size (ranks that built
 * different schedules, e.g. from different models or counts) fails with an {@link MpiException}
 * naming the instruction.
 *
 * <h2>Threading</h2>
 * Stateless; every call runs on, and blocks only, the calling thread.
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
     * Runs this rank's program of {@code schedule}.
     *
     * @param schedule     a bcast or multicast schedule over {@code participants.length} ranks
     * @param ch           the channel; {@code ch.rank()} must be one of {@code participants}
     * @param buf          the root's data (root) or where it lands (others); {@code schedule.messageBytes()} bytes
     * @param participants schedule rank -> communicator rank
     * @param tag          the tag for every message of this collective
     * @throws UnsupportedOperationException for an all-to-all schedule (see {@link CompiledSchedule#of})
     */
    public static void run(Schedule schedule, CollChannel ch, Buffer buf, int[] participants, int tag) {
        if (!schedule.collective().rooted()) {
            throw RankPlan.unsupported(schedule);
        }
        int me = indexOf(schedule, ch, participants);
        execute(schedule, RankPlan.compile(schedule, me), ch, buf, participants, tag);
    }

    /** As {@link #run(Schedule, CollChannel, Buffer, int[], int)}, reusing the compiled plan. */
    public static void run(CompiledSchedule compiled, CollChannel ch, Buffer buf, int[] participants, int tag) {
        Schedule schedule = compiled.schedule();
        int me = indexOf(schedule, ch, participants);
        execute(schedule, compiled.plan(me), ch, buf, participants, tag);
    }

    /**
     * As {@link #run(CompiledSchedule, CollChannel, Buffer, int[], int)} for a caller that already
     * knows its schedule rank: {@code participants[me]} must be {@code ch.rank()}. Saves the search.
     */
    public static void run(CompiledSchedule compiled, CollChannel ch, Buffer buf, int[] participants, int me,
            int tag) {
        Schedule schedule = compiled.schedule();
        checkLength(schedule, participants);
        if (me < 0 || me >= participants.length || participants[me] != ch.rank()) {
            throw new IllegalArgumentException("schedule rank " + me + " is not rank " + ch.rank()
                    + " in the participants " + Arrays.toString(participants) + " of " + schedule);
        }
        execute(schedule, compiled.plan(me), ch, buf, participants, tag);
    }

    private static void checkLength(Schedule schedule, int[] participants) {
        if (participants.length != schedule.ranks()) {
            throw new IllegalArgumentException("participants has " + participants.length + " ranks (expected: "
                    + schedule.ranks() + " for " + schedule + ")");
        }
    }

    private static int indexOf(Schedule schedule, CollChannel ch, int[] participants) {
        checkLength(schedule, participants);
        int me = -1;
        for (int i = 0; i < participants.length; i++) {
            if (participants[i] == ch.rank()) {
                me = i;
                break;
            }
        }
        if (me < 0) {
            throw new IllegalArgumentException("rank " + ch.rank() + " is not among the participants "
                    + Arrays.toString(participants) + " of " + schedule);
        }
        return me;
    }

    private static void execute(Schedule schedule, RankPlan plan, CollChannel ch, Buffer buf, int[] participants,
            int tag) {
        if (plan.messageBytes != buf.byteLength()) {
            throw new IllegalArgumentException("buffer of " + buf.byteLength() + " bytes (" + buf + ") for " + schedule
                    + " (expected: messageBytes=" + plan.messageBytes + ")");
        }
        if (plan.receives.length == 0 && plan.sends.length == 0) {
            return;
        }
        new Execution(schedule, plan, ch, buf, participants, tag).run();
    }

    /** The state of one call. Confined to the calling thread. */
    private static final class Execution {
        private final Schedule schedule;
        private final RankPlan plan;
        private final CollChannel ch;
        private final Buffer buf;
        private final int[] participants;
        private final int tag;
        private final int elementBytes;
        /** Per receive: one request per parent. */
        private final Request[][] receives;
        /** Per receive: the scratch buffer of each parent's copy, or null when it lands in {@link #buf} directly. */
        private final Buffer[][] scratch;
        /** Per receive: which parent's copy delivered, or -1 while not yet delivered. */
        private final int[] deliveredBy;
        private final Request[] sends;

        Execution(Schedule schedule, RankPlan plan, CollChannel ch, Buffer buf, int[] participants, int tag) {
            this.schedule = schedule;
            this.plan = plan;
            this.ch = ch;
            this.buf = buf;
            this.participants = participants;
            this.tag = tag;
            this.elementBytes = buf.type().bytes();
            this.receives = new Request[plan.receives.length][];
            this.scratch = new Buffer[plan.receives.length][];
            this.deliveredBy = new int[plan.receives.length];
            Arrays.fill(deliveredBy, -1);
            this.sends = new Request[plan.sends.length];
        }

        void run() {
            postReceives();
            for (int i = 0; i < sends.length; i++) {
                RankPlan.Message m = plan.sends[i];
                for (int p : m.providers) {
                    deliver(p);
                }
                sends[i] = ch.isend(m.contiguous() ? slice(m.ranges[0], m.ranges[1]) : pack(m), participants[m.peers[0]],
                        tag);
            }
            for (int r = 0; r < receives.length; r++) {
                deliver(r);
                Request[] copies = receives[r];
                for (int c = 0; c < copies.length; c++) {
                    if (c != deliveredBy[r]) {
                        Status drained;
                        try {
                            drained = copies[c].await(); // its data is dropped
                        } catch (MpiException e) {
                            continue; // a redundant copy lost on the way: the data came by the other
                        }
                        checkSize(r, c, drained);
                    }
                }
            }
            for (Request s : sends) {
                s.await();
            }
        }

        private void postReceives() {
            for (int r = 0; r < receives.length; r++) {
                RankPlan.Message m = plan.receives[r];
                Request[] copies = new Request[m.peers.length];
                if (m.contiguous() && !m.firstOf()) {
                    copies[0] = ch.irecv(slice(m.ranges[0], m.ranges[1]), participants[m.peers[0]], tag);
                } else {
                    int count = elements(m);
                    Buffer[] into = new Buffer[m.peers.length];
                    for (int c = 0; c < copies.length; c++) {
                        into[c] = buf.allocateLike(count);
                        copies[c] = ch.irecv(into[c], participants[m.peers[c]], tag);
                    }
                    scratch[r] = into;
                }
                receives[r] = copies;
            }
        }

        /** Blocks until receive {@code r} has delivered its blocks into {@link #buf}. */
        private void deliver(int r) {
            if (deliveredBy[r] >= 0) {
                return;
            }
            Request[] copies = receives[r];
            int c = copies.length == 1 ? 0 : firstDelivered(copies);
            checkSize(r, c, copies[c].await());
            if (scratch[r] != null) {
                unpack(plan.receives[r], scratch[r][c]);
            }
            deliveredBy[r] = c;
        }

        /**
         * The first copy of a RECV_FIRST_OF to complete successfully. Failed copies are skipped; when
         * all have failed, the first failure is thrown.
         */
        private static int firstDelivered(Request[] copies) {
            boolean[] failed = new boolean[copies.length];
            MpiException firstFailure = null;
            while (true) {
                int live = 0;
                for (boolean f : failed) {
                    live += f ? 0 : 1;
                }
                if (live == 0) {
                    throw firstFailure;
                }
                Request[] waitOn = new Request[live];
                int[] index = new int[live];
                for (int c = 0, k = 0; c < copies.length; c++) {
                    if (!failed[c]) {
                        waitOn[k] = copies[c];
                        index[k++] = c;
                    }
                }
                int c = index[Request.waitAny(waitOn)];
                try {
                    copies[c].await();
                    return c;
                } catch (MpiException e) {
                    failed[c] = true;
                    if (firstFailure == null) {
                        firstFailure = e;
                    }
                }
            }
        }

        private void checkSize(int r, int copy, Status status) {
            RankPlan.Message m = plan.receives[r];
            long expected = (long) elements(m) * elementBytes;
            if (status.byteCount() != expected) {
                throw new MpiException("rank " + ch.rank() + " (schedule rank " + plan.rank + ") of " + schedule
                        + ": instruction #" + m.programIndex + " " + schedule.program(plan.rank).get(m.programIndex)
                        + " got " + status.byteCount() + " bytes from rank " + participants[m.peers[copy]]
                        + " (expected: " + expected + "); do all ranks build the same schedule (same count, root,"
                        + " group and model)?");
            }
        }

        private int element(long byteOffset) {
            return (int) (byteOffset / elementBytes);
        }

        private Buffer slice(long from, long to) {
            int first = element(from);
            return buf.slice(first, element(to) - first);
        }

        private int elements(RankPlan.Message m) {
            int n = 0;
            for (int i = 0; i < m.ranges.length; i += 2) {
                n += element(m.ranges[i + 1]) - element(m.ranges[i]);
            }
            return n;
        }

        private Buffer pack(RankPlan.Message m) {
            Buffer out = buf.allocateLike(elements(m));
            int at = 0;
            for (int i = 0; i < m.ranges.length; i += 2) {
                Buffer part = slice(m.ranges[i], m.ranges[i + 1]);
                out.slice(at, part.count()).copyFrom(part);
                at += part.count();
            }
            return out;
        }

        private void unpack(RankPlan.Message m, Buffer from) {
            int at = 0;
            for (int i = 0; i < m.ranges.length; i += 2) {
                Buffer part = slice(m.ranges[i], m.ranges[i + 1]);
                part.copyFrom(from.slice(at, part.count()));
                at += part.count();
            }
        }
    }
}
