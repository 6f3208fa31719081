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
 *       and nothing else (except, in an all-to-all, other ranks' blocks in transit);</li>
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
        ProgramAnalysis analysis = ProgramAnalysis.of(schedule);
        checkDeliveries(analysis);
        if (analysis.ok()) {
            checkProgress(analysis);
        }
        List<String> errors = new ArrayList<>(analysis.errors());
        if (analysis.errorCount() > errors.size()) {
            errors.add("... and " + (analysis.errorCount() - errors.size()) + " more");
        }
        return errors;
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
                if (!in.isSend()) {
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
            for (Block b : received.keySet()) {
                if (!expected.contains(b) && !inTransit(schedule, r, b)) {
                    analysis.error("unexpected delivery: rank " + r + " receives " + b + ", which it "
                            + (schedule.initialBlocks(r).contains(b) ? "already holds" : "is not to receive"));
                }
            }
        }
    }

    /**
     * All-to-all algorithms may route blocks through intermediate ranks (SEM's store-and-forward):
     * receiving someone else's block on its way is fine; only its destination counts it.
     */
    private static boolean inTransit(Schedule schedule, int rank, Block b) {
        return b instanceof Block.Pair p && !schedule.collective().rooted()
                && p.destination() != rank && p.origin() != rank;
    }

    /**
     * Executes the dependency graph: a send waits for the previous send of its rank and for the
     * receives that provide its data; a receive waits for its matched send (a RECV_FIRST_OF for
     * the first of them). Whatever never runs is deadlocked.
     */
    private static void checkProgress(ProgramAnalysis analysis) {
        int n = analysis.instructionCount();
        int[] waiting = new int[n];
        List<List<Integer>> dependents = new ArrayList<>(n);
        for (int id = 0; id < n; id++) {
            dependents.add(null);
        }
        Schedule schedule = analysis.schedule();
        for (int r = 0; r < schedule.ranks(); r++) {
            int previousSend = -1;
            for (int i = 0; i < schedule.program(r).size(); i++) {
                int id = analysis.id(r, i);
                if (analysis.instruction(id).isSend()) {
                    if (previousSend >= 0) {
                        addEdge(dependents, waiting, previousSend, id);
                    }
                    for (int p = 0; p < analysis.providerCount(id); p++) {
                        addEdge(dependents, waiting, analysis.provider(id, p), id);
                    }
                    previousSend = id;
                } else {
                    for (int s = 0; s < analysis.matchedSendCount(id); s++) {
                        addEdge(dependents, waiting, analysis.matchedSend(id, s), id);
                    }
                    // Any one matched send releases a receive (the first of a RECV_FIRST_OF).
                    waiting[id] = Math.min(waiting[id], 1);
                }
            }
        }
        boolean[] done = new boolean[n];
        ArrayDeque<Integer> ready = new ArrayDeque<>();
        for (int id = 0; id < n; id++) {
            if (waiting[id] == 0) {
                ready.add(id);
            }
        }
        while (!ready.isEmpty()) {
            int id = ready.poll();
            done[id] = true;
            List<Integer> next = dependents.get(id);
            if (next == null) {
                continue;
            }
            for (int d : next) {
                // A RECV_FIRST_OF is released by its first sender; later ones find it at zero.
                if (waiting[d] > 0 && --waiting[d] == 0) {
                    ready.add(d);
                }
            }
        }
        for (int id = 0; id < n; id++) {
            if (!done[id]) {
                analysis.error("deadlock: " + analysis.where(id) + " can never "
                        + (analysis.instruction(id).isSend() ? "start" : "complete"));
            }
        }
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
