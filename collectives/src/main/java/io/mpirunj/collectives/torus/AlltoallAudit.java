package io.mpirunj.collectives.torus;

import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Instruction;
import io.mpirunj.collectives.schedule.PairBlocks;
import io.mpirunj.collectives.schedule.Schedule;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A verifier and cost count for all-to-all schedules of combined messages that scales to 4,096
 * ranks and 16.7 M blocks: per-block state lives in three primitive arrays (where each block is,
 * since which receive of its holder's program, and how often it reached its destination), and
 * {@link PairBlocks} messages are read product by product. The general
 * {@link io.mpirunj.collectives.schedule.Verifier} keeps hash maps of {@link Block}s and is meant
 * for small schedules; on those both must agree (tests check it).
 *
 * <h2>What it checks</h2>
 * Sends and receives match in order per (source, destination) pair and carry the same blocks;
 * executing the programs (a send waits for its rank's previous send and, stricter than
 * {@link Schedule}'s rule, for every earlier receive of its rank; a receive for its send)
 * completes every instruction; a send carries only blocks its rank holds at that point of its
 * program (a block is in one place at a time: sending moves it; but its origin holds it throughout, in
 * its send buffer); no rank's block for itself
 * travels; at the end every block (o, d), o ≠ d, is at d and reached d exactly once.
 *
 * <h2>What it counts (paper 001 §4's cost terms, per node in lock-step)</h2>
 * <ul>
 *   <li>start-ups: the number of distinct steps of the sends;</li>
 *   <li>transmitted block-units: the sum over steps of the largest message of the step;</li>
 *   <li>rearranged block-units: the sum over steps of the largest message of the step that a
 *       node had to assemble from more than one buffer (its own initial data and/or several
 *       received messages). A message that is part of one earlier message is forwarded as a
 *       slice, as the paper's lemma 2 layout allows, and costs no re-sort.</li>
 * </ul>
 */
public record AlltoallAudit(List<String> errors, int startUps, long transmitted, long rearranged,
                            int maxSendsPerRank) {

    private static final int MAX_ERRORS = 50;
    /** Program indices must fit the 24 bits the audit packs them into. */
    private static final int MAX_PROGRAM = (1 << 24) - 2;

    public boolean ok() {
        return errors.isEmpty();
    }

    /** Verifies and counts; problems are listed (at most 50, then a count), never thrown. */
    public static AlltoallAudit of(Schedule schedule) {
        return new Run(schedule).run();
    }

    private static final class Run {
        final Schedule schedule;
        final int ranks;
        final List<String> errors = new ArrayList<>();
        int errorCount;
        final int[] offset;
        final Instruction[] instructions;
        final int[] rankOf;
        /** Where each audited instruction sits in its rank's program (local copies are not audited). */
        final int[] programIndex;
        final int[] matched;
        /**
         * Per block b = origin·ranks + destination, packed so one memory access serves a move:
         * bits 32-63 the rank holding it, 24-31 how often it reached its destination, 0-23 one
         * more than the index of the receive (in the holder's program) it arrived with (0: held
         * from the start).
         */
        long[] state;
        final TreeMap<Integer, long[]> perStep = new TreeMap<>(); // step -> {largest, largest rearranged}

        Run(Schedule schedule) {
            this.schedule = schedule;
            this.ranks = schedule.ranks();
            // The audit follows messages: a rank's copy of its own block (r, r) is local and moves nothing.
            offset = new int[ranks + 1];
            for (int r = 0; r < ranks; r++) {
                int messages = 0;
                for (Instruction in : schedule.program(r)) {
                    messages += in.isLocal() ? 0 : 1;
                }
                offset[r + 1] = offset[r] + messages;
            }
            instructions = new Instruction[offset[ranks]];
            rankOf = new int[offset[ranks]];
            programIndex = new int[offset[ranks]];
            for (int r = 0; r < ranks; r++) {
                List<Instruction> p = schedule.program(r);
                int id = offset[r];
                for (int i = 0; i < p.size(); i++) {
                    Instruction in = p.get(i);
                    if (in.isLocal()) {
                        if (!isOwnBlockCopy(in, r)) {
                            error("rank " + r + " #" + i + " (" + in + "): an all-to-all audit allows no local"
                                    + " operation but the copy of the rank's own block");
                        }
                        continue;
                    }
                    instructions[id] = in;
                    rankOf[id] = r;
                    programIndex[id++] = i;
                }
            }
            matched = new int[instructions.length];
        }

        private static boolean isOwnBlockCopy(Instruction in, int rank) {
            Block own = new Block.Pair(rank, rank);
            return in.kind() == Instruction.Kind.COPY && in.blocks().equals(List.of(own)) && own.equals(in.target());
        }

        void error(String message) {
            if (errorCount++ < MAX_ERRORS) {
                errors.add(message);
            }
        }

        String where(int id) {
            return "rank " + rankOf[id] + " #" + programIndex[id] + " (" + brief(instructions[id]) + ")";
        }

        static String brief(Instruction in) {
            return in.kind() + (in.isSend() ? " -> " : " <- ") + in.peer() + " (step " + in.step() + ", "
                    + in.blocks().size() + " blocks)";
        }

        AlltoallAudit run() {
            if (schedule.collective() != Collective.ALLTOALL) {
                error(schedule + " is not an all-to-all");
                return result(0);
            }
            if ((long) ranks * ranks > Integer.MAX_VALUE) {
                error(ranks + " ranks: too many blocks to audit");
                return result(0);
            }
            match();
            if (errorCount > 0) {
                return result(0);
            }
            int blocks = ranks * ranks;
            for (int r = 0; r < ranks; r++) {
                if (schedule.program(r).size() >= MAX_PROGRAM) {
                    error("rank " + r + " has " + schedule.program(r).size() + " instructions: too many to audit");
                    return result(0);
                }
            }
            state = new long[blocks];
            for (int b = 0; b < blocks; b++) {
                state[b] = (long) (b / ranks) << 32;
            }
            execute();
            for (int b = 0; b < blocks && errorCount < MAX_ERRORS; b++) {
                int o = b / ranks;
                int d = b % ranks;
                if (o == d) {
                    continue;
                }
                int holder = (int) (state[b] >>> 32);
                int deliveries = (int) (state[b] >>> 24) & 0xFF;
                if (deliveries == 0) {
                    error("missing delivery: rank " + d + " never receives (" + o + "->" + d + ")"
                            + (holder != o ? ", it ends at rank " + holder : ""));
                } else if (deliveries > 1) {
                    error("double delivery: rank " + d + " receives (" + o + "->" + d + ") " + deliveries + " times");
                } else if (holder != d) {
                    error("block (" + o + "->" + d + ") leaves its destination and ends at rank " + holder);
                }
            }
            int maxSends = 0;
            for (int r = 0; r < ranks; r++) {
                int sends = 0;
                for (Instruction in : schedule.program(r)) {
                    sends += in.isSend() ? 1 : 0;
                }
                maxSends = Math.max(maxSends, sends);
            }
            return result(maxSends);
        }

        AlltoallAudit result(int maxSends) {
            List<String> out = new ArrayList<>(errors);
            if (errorCount > errors.size()) {
                out.add("... and " + (errorCount - errors.size()) + " more");
            }
            long transmitted = 0;
            long rearranged = 0;
            for (long[] s : perStep.values()) {
                transmitted += s[0];
                rearranged += s[1];
            }
            return new AlltoallAudit(Collections.unmodifiableList(out), perStep.size(), transmitted, rearranged,
                    maxSends);
        }

        /** The n-th send s->d with the n-th receive on d naming s. */
        void match() {
            Map<Long, ArrayDeque<Integer>> posted = new HashMap<>();
            for (int id = 0; id < instructions.length; id++) {
                Instruction in = instructions[id];
                if (in.kind() == Instruction.Kind.RECV_FIRST_OF) {
                    error(where(id) + ": RECV_FIRST_OF has no place in an all-to-all");
                } else if (!in.isSend()) {
                    posted.computeIfAbsent(channel(in.peer(), rankOf[id]), k -> new ArrayDeque<>()).add(id);
                }
                if (in.peer() == rankOf[id]) {
                    error(where(id) + ": names its own rank as peer");
                }
            }
            for (int id = 0; id < instructions.length; id++) {
                Instruction in = instructions[id];
                if (!in.isSend()) {
                    continue;
                }
                ArrayDeque<Integer> queue = posted.get(channel(rankOf[id], in.peer()));
                if (queue == null || queue.isEmpty()) {
                    error("unmatched send: " + where(id) + " has no matching receive on rank " + in.peer());
                    continue;
                }
                int recv = queue.poll();
                List<Block> a = in.blocks();
                List<Block> b = instructions[recv].blocks();
                if (a != b && !a.equals(b)) {
                    error("mismatched blocks: " + where(id) + " is matched by " + where(recv));
                }
                matched[id] = recv;
                matched[recv] = id;
            }
            for (ArrayDeque<Integer> left : posted.values()) {
                for (int recv : left) {
                    error("unmatched receive: " + where(recv) + " waits for a message that is never sent");
                }
            }
        }

        long channel(int src, int dst) {
            return (long) src * ranks + dst;
        }

        /** Kahn's algorithm over the dependencies; sends move blocks as they run. */
        void execute() {
            int n = instructions.length;
            int[] waiting = new int[n];
            int[][] dependents = new int[n][];
            int[] dependentCount = new int[n];
            for (int r = 0; r < ranks; r++) {
                int previousSend = -1;
                List<Integer> receivesSoFar = new ArrayList<>();
                for (int id = offset[r]; id < offset[r + 1]; id++) {
                    if (instructions[id].isSend()) {
                        if (previousSend >= 0) {
                            edge(dependents, dependentCount, waiting, previousSend, id);
                        }
                        // stricter than the schedule's rule: wait for every earlier receive
                        for (int recv : receivesSoFar) {
                            edge(dependents, dependentCount, waiting, recv, id);
                        }
                        receivesSoFar.clear(); // later sends reach these through the send chain
                        previousSend = id;
                    } else {
                        edge(dependents, dependentCount, waiting, matched[id], id);
                        receivesSoFar.add(id);
                    }
                }
            }
            ArrayDeque<Integer> ready = new ArrayDeque<>();
            for (int id = 0; id < n; id++) {
                if (waiting[id] == 0) {
                    ready.add(id);
                }
            }
            boolean[] done = new boolean[n];
            while (!ready.isEmpty()) {
                int id = ready.poll();
                done[id] = true;
                if (instructions[id].isSend()) {
                    send(id);
                }
                for (int k = 0; k < dependentCount[id]; k++) {
                    int d = dependents[id][k];
                    if (--waiting[d] == 0) {
                        ready.add(d);
                    }
                }
            }
            int stuck = 0;
            for (int id = 0; id < n; id++) {
                if (!done[id] && stuck++ < 10) {
                    error("deadlock: " + where(id) + " can never " + (instructions[id].isSend() ? "start" : "complete"));
                }
            }
        }

        static void edge(int[][] dependents, int[] count, int[] waiting, int from, int to) {
            if (dependents[from] == null) {
                dependents[from] = new int[2];
            } else if (count[from] == dependents[from].length) {
                dependents[from] = java.util.Arrays.copyOf(dependents[from], count[from] * 2);
            }
            dependents[from][count[from]++] = to;
            waiting[to]++;
        }

        /** Moves the send's blocks to the receiver, checking that the sender holds them. */
        void send(int id) {
            Instruction in = instructions[id];
            int from = rankOf[id];
            int to = in.peer();
            int index = id - offset[from];
            int arrival = matched[id] - offset[to];
            int firstSource = Integer.MIN_VALUE;
            boolean mixed = false;
            List<Block> blocks = in.blocks();
            if (blocks instanceof PairBlocks pairs) {
                for (int p = 0; p < pairs.productCount(); p++) {
                    for (int o : pairs.origins(p)) {
                        if (o >= ranks) {
                            error(where(id) + ": block origin " + o + " outside 0.." + (ranks - 1));
                            return;
                        }
                        for (int d : pairs.destinations(p)) {
                            if (d == o) {
                                continue;
                            }
                            int source = move(id, from, to, index, arrival, o, d);
                            mixed |= firstSource != Integer.MIN_VALUE && source != firstSource;
                            firstSource = source;
                        }
                    }
                }
            } else {
                for (Block b : blocks) {
                    if (!(b instanceof Block.Pair pair)) {
                        error(where(id) + ": block " + b + " is not an (origin, destination) block");
                        return;
                    }
                    if (pair.origin() == pair.destination()) {
                        error(where(id) + ": carries " + b + ", a rank's block for itself");
                        continue;
                    }
                    int source = move(id, from, to, index, arrival, pair.origin(), pair.destination());
                    mixed |= firstSource != Integer.MIN_VALUE && source != firstSource;
                    firstSource = source;
                }
            }
            long[] s = perStep.computeIfAbsent(in.step(), k -> new long[2]);
            int size = blocks.size();
            s[0] = Math.max(s[0], size);
            if (mixed) {
                s[1] = Math.max(s[1], size);
            }
        }

        /** Moves one block; returns where the sender got it (-1: its own data, else the receive index). */
        int move(int id, int from, int to, int index, int arrival, int o, int d) {
            if (d >= ranks || o >= ranks) {
                error(where(id) + ": block (" + o + "->" + d + ") names a rank outside 0.." + (ranks - 1));
                return -2;
            }
            int b = o * ranks + d;
            long s = state[b];
            int source = (int) (s & 0xFFFFFF) - 1;
            if (from == o) {
                source = -1; // a rank's own blocks stay in its send buffer, wherever a copy has gone
            } else if ((int) (s >>> 32) != from || source >= index) {
                error("send before hold: " + where(id) + " carries (" + o + "->" + d + ") which rank " + from
                        + " does not hold at that point of its program");
                return -2;
            }
            long deliveries = (s >>> 24) & 0xFF;
            if (to == d && deliveries < 0xFF) {
                deliveries++;
            }
            state[b] = ((long) to << 32) | (deliveries << 24) | (arrival + 1);
            return source;
        }
    }
}
