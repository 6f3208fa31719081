package io.mpirunj.collectives.schedule;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a schedule against its collective's contract:
 * <ol>
 *   <li>well-formed: peers are other ranks, blocks fit the collective and the buffer;</li>
 *   <li>every send has its receive on the peer and vice versa, in order per (src, dst) pair,
 *       carrying the same blocks;</li>
 *   <li>no rank sends a block it does not hold at that point of its program;</li>
 *   <li>every rank receives every block it must, exactly once (a RECV_FIRST_OF counts once),
 *       and nothing else (except, in an all-to-all, other ranks' blocks in transit); in an all-to-all
 *       each rank copies its own block (r, r) into its receive buffer once, and a copy moves no block onto
 *       another;</li>
 *   <li>nothing is written into a rank's send buffer (a receive, or a local operation's target);</li>
 *   <li>in a bcast or multicast, every byte a rank holds is the root's byte at the same offset: no REDUCE, and
 *       a COPY only between the same offsets (one that moves bytes would deliver them to the wrong place);</li>
 *   <li>no deadlock: executing the programs with the semantics of {@link Schedule} completes
 *       every instruction.</li>
 * </ol>
 * Each problem is one line naming the rank, the instruction index and the instruction.
 */
public final class Verifier {

    private Verifier() {
    }

    /** All problems found (at most 50 listed, then a count); empty when the schedule is valid. */
    public static List<String> verify(Schedule schedule) {
        return verify(ProgramAnalysis.of(schedule));
    }

    /**
     * As {@link #verify(Schedule)} on an analysis already made (e.g. the runner's); the problems
     * found are added to it, so a schedule found invalid cannot be run from it.
     */
    public static List<String> verify(ProgramAnalysis analysis) {
        checkDeliveries(analysis);
        checkLocalOperations(analysis);
        checkSendBuffersUnwritten(analysis);
        if (analysis.ok()) {
            checkProgress(analysis);
        }
        List<String> errors = new ArrayList<>(analysis.errors());
        if (analysis.errorCount() > errors.size()) {
            errors.add("... and " + (analysis.errorCount() - errors.size()) + " more");
        }
        return errors;
    }

    /** The first of {@code problems} (not empty), and how many more there are: for a one-line error. */
    public static String inOneLine(List<String> problems) {
        int more = problems.size() - 1;
        return problems.get(0) + (more == 0 ? "" : " (and " + more + " more problem" + (more == 1 ? "" : "s") + ")");
    }

    /** Throws {@link IllegalArgumentException} listing the problems when the schedule is not valid. */
    public static Schedule check(Schedule schedule) {
        List<String> errors = verify(schedule);
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException("invalid schedule " + schedule + ":\n  " + String.join("\n  ", errors));
        }
        return schedule;
    }

    private static void checkDeliveries(ProgramAnalysis analysis) {
        Schedule schedule = analysis.schedule();
        for (int r = 0; r < schedule.ranks(); r++) {
            Map<Block, Integer> received = new HashMap<>();
            for (Instruction in : schedule.program(r)) {
                if (in.isReceive()) {
                    for (Block b : in.blocks()) {
                        received.merge(b, 1, Integer::sum);
                    }
                }
            }
            Set<Block> expected = new HashSet<>(schedule.expectedBlocks(r));
            for (Block b : schedule.expectedBlocks(r)) {
                int count = received.getOrDefault(b, 0);
                if (count == 0) {
                    analysis.error("missing delivery: rank " + r + " never receives " + b);
                } else if (count > 1) {
                    analysis.error("double delivery: rank " + r + " receives " + b + " " + count + " times");
                }
            }
            if (schedule.collective().pairs()) {
                checkOwnBlockCopied(schedule, r, analysis);
            }
            for (Block b : received.keySet()) {
                if (!expected.contains(b) && !inTransit(schedule, r, b) && !(b instanceof Block.Range)) {
                    analysis.error("unexpected delivery: rank " + r + " receives " + b + ", which it "
                            + (schedule.initialBlocks(r).contains(b) ? "already holds" : "is not to receive"));
                }
            }
        }
    }

    /**
     * An all-to-all's rank r delivers its own block (r, r) with one local copy from its send buffer to its receive
     * buffer (a hand-written schedule without it left that block of the receive buffer unwritten, with status 0).
     * Only for schedules of (origin, destination) blocks: one of element ranges says where its bytes go itself.
     */
    private static void checkOwnBlockCopied(Schedule schedule, int r, ProgramAnalysis analysis) {
        Block.Pair own = new Block.Pair(r, r);
        int copies = 0;
        for (Instruction in : schedule.program(r)) {
            if (!(in.blocks() instanceof PairBlocks) && in.blocks().stream().anyMatch(Block.Range.class::isInstance)) {
                return; // (a combined message's PairBlocks holds pairs only: not walked, as it may be millions)
            }
            if (in.kind() == Instruction.Kind.COPY && own.equals(in.target())) {
                copies++;
            }
        }
        if (copies != 1) {
            analysis.error((copies == 0 ? "missing delivery: rank " + r + " never copies " : "double delivery: rank "
                    + r + " copies " + copies + " times ") + "its own block " + own + " into its receive buffer");
        }
    }

    /**
     * No receive and no local operation writes into a rank's send buffer: MPI leaves it to the caller, unchanged (an
     * all-to-all copy onto another of the rank's own blocks overwrote the user's data, and the verifier said ok).
     */
    private static void checkSendBuffersUnwritten(ProgramAnalysis analysis) {
        for (int id = 0; id < analysis.instructionCount(); id++) {
            Instruction in = analysis.instruction(id);
            if (in.isReceive() && in.blocks().get(0) instanceof Block.Pair) {
                continue; // one lands in a send buffer only back at its origin: "already holds" says so
            }
            List<ProgramAnalysis.Location> written = in.isLocal()
                    ? (analysis.target(id) == null ? List.of() : List.of(analysis.target(id)))
                    : in.isReceive() && analysis.locations(id) != null ? analysis.locations(id) : List.of();
            for (ProgramAnalysis.Location l : written) {
                if (l.role() == Block.Role.SEND) {
                    analysis.error(analysis.where(id) + ": writes into rank " + analysis.rankOf(id)
                            + "'s send buffer (" + (in.isLocal() ? in.target() : in.blocks()) + ")");
                    break;
                }
            }
        }
    }

    /**
     * A bcast or multicast delivers the root's bytes unchanged, each at its own offset: a REDUCE would combine them
     * and a COPY between different offsets would move them (a hand-edited schedule passed the other checks, then
     * ran with wrong data and exit status 0).
     */
    private static void checkLocalOperations(ProgramAnalysis analysis) {
        if (analysis.schedule().collective().pairs()) {
            checkPairCopies(analysis);
            return;
        }
        if (!analysis.schedule().collective().rooted()) {
            return;
        }
        String op = analysis.schedule().collective().label();
        for (int id = 0; id < analysis.instructionCount(); id++) {
            Instruction in = analysis.instruction(id);
            if (in.kind() == Instruction.Kind.REDUCE) {
                analysis.error(analysis.where(id) + ": a reduce has no place in a " + op
                        + " (it would change the root's data)");
            } else if (in.kind() == Instruction.Kind.COPY && !sameOffsets(in.blocks().get(0), in.target())) {
                analysis.error(analysis.where(id) + ": a copy in a " + op + " must keep the root's bytes at their"
                        + " offsets (this one moves " + in.blocks().get(0) + " to " + in.target() + ")");
            }
        }
    }

    /**
     * In an all-to-all of (origin, destination) blocks a block is one message's bytes wherever it is: a copy moves
     * it from where the rank holds it to where it belongs (its own block, send to receive buffer), never onto
     * another block, and nothing reduces.
     */
    private static void checkPairCopies(ProgramAnalysis analysis) {
        for (int id = 0; id < analysis.instructionCount(); id++) {
            Instruction in = analysis.instruction(id);
            if (in.kind() == Instruction.Kind.REDUCE) {
                analysis.error(analysis.where(id) + ": a reduce has no place in an alltoall");
            } else if (in.kind() == Instruction.Kind.COPY && in.blocks().get(0) instanceof Block.Pair from
                    && !from.equals(in.target())) {
                analysis.error(analysis.where(id) + ": a copy in an alltoall moves a block to where it belongs, not "
                        + "onto another (this one writes " + from + " into " + in.target() + ")");
            }
        }
    }

    private static boolean sameOffsets(Block from, Block to) {
        if (from instanceof Block.Span f && to instanceof Block.Span t) {
            return f.offset() == t.offset() && f.length() == t.length();
        }
        return from.getClass() == to.getClass() && !(from instanceof Block.Span);
    }

    /**
     * All-to-all algorithms may route blocks through intermediate ranks (SEM's store-and-forward):
     * receiving someone else's block on its way is fine; only its destination counts it.
     */
    private static boolean inTransit(Schedule schedule, int rank, Block b) {
        return b instanceof Block.Pair p && schedule.collective().pairs()
                && p.destination() != rank && p.origin() != rank;
    }

    /**
     * Executes the dependency graph of the runner's semantics, with two events per instruction:
     * a send starts (after the previous send started and its providers are done) and completes
     * (once its matched receive is posted: the conservative, rendezvous reading); a receive is
     * posted (after the previous receive was posted and its hazards completed) and done (once
     * posted and one matched send started); a local operation is done after the previous one, its
     * providers and its hazards. Whatever never happens is deadlocked.
     */
    private static void checkProgress(ProgramAnalysis analysis) {
        int n = analysis.instructionCount();
        // Node 2*id: send start / receive post / local done. Node 2*id+1: send complete / receive done.
        int[] waiting = new int[2 * n];
        List<List<Integer>> dependents = new ArrayList<>(2 * n);
        for (int k = 0; k < 2 * n; k++) {
            dependents.add(null);
        }
        Schedule schedule = analysis.schedule();
        boolean[] anyOf = new boolean[2 * n];
        for (int r = 0; r < schedule.ranks(); r++) {
            int[] previous = {-1, -1, -1}; // the previous send, receive and local operation of the rank
            for (int i = 0; i < schedule.program(r).size(); i++) {
                int id = analysis.id(r, i);
                Instruction in = analysis.instruction(id);
                int first = 2 * id;
                int second = 2 * id + 1;
                int lane = in.isSend() ? 0 : in.isReceive() ? 1 : 2;
                if (previous[lane] >= 0) {
                    addEdge(dependents, waiting, 2 * previous[lane], first);
                }
                previous[lane] = id;
                if (!in.isReceive()) {
                    for (int p = 0; p < analysis.providerCount(id); p++) {
                        addEdge(dependents, waiting, finished(analysis, analysis.provider(id, p)), first);
                    }
                }
                if (!in.isSend()) {
                    for (int h = 0; h < analysis.hazardCount(id); h++) {
                        addEdge(dependents, waiting, finished(analysis, analysis.hazard(id, h)), first);
                    }
                }
                addEdge(dependents, waiting, first, second);
                if (in.isSend()) {
                    int recv = analysis.matchedReceive(id);
                    if (recv >= 0) {
                        addEdge(dependents, waiting, 2 * recv, second);
                    }
                } else if (in.isReceive()) {
                    for (int s = 0; s < analysis.matchedSendCount(id); s++) {
                        addEdge(dependents, waiting, 2 * analysis.matchedSend(id, s), second);
                    }
                    if (analysis.matchedSendCount(id) > 0) {
                        // Any one matched send releases a receive (the first of a RECV_FIRST_OF).
                        waiting[second] = 2;
                        anyOf[second] = true;
                    }
                }
            }
        }
        boolean[] done = new boolean[2 * n];
        boolean[] senderSeen = new boolean[2 * n];
        ArrayDeque<Integer> ready = new ArrayDeque<>();
        for (int k = 0; k < 2 * n; k++) {
            if (waiting[k] == 0) {
                ready.add(k);
            }
        }
        while (!ready.isEmpty()) {
            int k = ready.poll();
            done[k] = true;
            List<Integer> next = dependents.get(k);
            if (next == null) {
                continue;
            }
            for (int d : next) {
                if (anyOf[d] && (k & 1) == 0 && k / 2 != d / 2) {
                    // A send's start: only the first of a receive's matched senders counts.
                    if (senderSeen[d]) {
                        continue;
                    }
                    senderSeen[d] = true;
                }
                if (waiting[d] > 0 && --waiting[d] == 0) {
                    ready.add(d);
                }
            }
        }
        for (int id = 0; id < n; id++) {
            Instruction in = analysis.instruction(id);
            if (!done[2 * id]) {
                analysis.error("deadlock: " + analysis.where(id) + " can never "
                        + (in.isSend() ? "start" : in.isReceive() ? "be posted" : "run"));
            } else if (!done[2 * id + 1]) {
                analysis.error("deadlock: " + analysis.where(id) + " can never complete");
            }
        }
    }

    /** The event after which an instruction's bytes are settled: a send's completion, a receive's delivery. */
    private static int finished(ProgramAnalysis analysis, int id) {
        return 2 * id + 1;
    }

    private static void addEdge(List<List<Integer>> dependents, int[] waiting, int from, int to) {
        List<Integer> list = dependents.get(from);
        if (list == null) {
            list = new ArrayList<>(2);
            dependents.set(from, list);
        }
        list.add(to);
        waiting[to]++;
    }
}
