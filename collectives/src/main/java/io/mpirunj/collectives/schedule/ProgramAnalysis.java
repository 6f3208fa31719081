package io.mpirunj.collectives.schedule;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The static facts about a schedule's programs that the verifier and the simulator share:
 * global instruction ids, which send matches which receive (in order per (src, dst) pair),
 * and which earlier receive provides each block a send carries. Problems found on the way
 * (bad peers or blocks, unmatched messages, sends of data not yet held) are collected in
 * {@link #errors()}; the analysis never throws on a broken schedule.
 *
 * <p>Instruction ids number all instructions rank by rank: id = offset(rank) + index.
 */
public final class ProgramAnalysis {

    /** Errors beyond this many are counted, not stored. */
    static final int MAX_ERRORS = 50;

    private static final int[] NONE = new int[0];

    private final Schedule schedule;
    private final int[] offsets;
    private final int[] rankOf;
    private final int[] matchedReceive;
    private final int[][] matchedSends;
    private final int[][] providers;
    private final List<String> errors = new ArrayList<>();
    private int errorCount;

    private ProgramAnalysis(Schedule schedule) {
        this.schedule = schedule;
        int ranks = schedule.ranks();
        offsets = new int[ranks + 1];
        for (int r = 0; r < ranks; r++) {
            offsets[r + 1] = offsets[r] + schedule.program(r).size();
        }
        int total = offsets[ranks];
        rankOf = new int[total];
        for (int r = 0; r < ranks; r++) {
            Arrays.fill(rankOf, offsets[r], offsets[r + 1], r);
        }
        matchedReceive = new int[total];
        Arrays.fill(matchedReceive, -1);
        matchedSends = new int[total][];
        providers = new int[total][];
        checkUnits();
        checkInstructions();
        match();
        trackHolding();
    }

    public static ProgramAnalysis of(Schedule schedule) {
        return new ProgramAnalysis(schedule);
    }

    public Schedule schedule() {
        return schedule;
    }

    public int instructionCount() {
        return rankOf.length;
    }

    public int id(int rank, int index) {
        return offsets[rank] + index;
    }

    public int rankOf(int id) {
        return rankOf[id];
    }

    public int indexOf(int id) {
        return id - offsets[rankOf[id]];
    }

    public Instruction instruction(int id) {
        return schedule.program(rankOf[id]).get(indexOf(id));
    }

    /** The receive a send matches, or -1 when it has none. */
    public int matchedReceive(int sendId) {
        return matchedReceive[sendId];
    }

    /** How many sends are matched to a receive (one per parent of a RECV_FIRST_OF; 0 if none). */
    int matchedSendCount(int receiveId) {
        return matchedSends[receiveId] == null ? 0 : matchedSends[receiveId].length;
    }

    int matchedSend(int receiveId, int i) {
        return matchedSends[receiveId][i];
    }

    /**
     * How many receives provide a send's data: earlier receives of the same rank whose data it
     * carries (0 for data held at the start).
     */
    public int providerCount(int sendId) {
        return providers[sendId] == null ? 0 : providers[sendId].length;
    }

    /** The i-th providing receive of a send. */
    public int provider(int sendId, int i) {
        return providers[sendId][i];
    }

    /** Structural, matching and holding errors, at most {@value #MAX_ERRORS} of them. */
    public List<String> errors() {
        return List.copyOf(errors);
    }

    /** All errors found, including those not stored. */
    public int errorCount() {
        return errorCount;
    }

    public boolean ok() {
        return errorCount == 0;
    }

    String where(int id) {
        return "rank " + rankOf[id] + " #" + indexOf(id) + " (" + instruction(id) + ")";
    }

    void error(String message) {
        errorCount++;
        if (errors.size() < MAX_ERRORS) {
            errors.add(message);
        }
    }

    private void checkUnits() {
        if (!schedule.collective().rooted()) {
            return;
        }
        List<Block> units = schedule.units();
        if (units.equals(Block.WHOLE_ONLY)) {
            return;
        }
        long next = 0;
        for (Block unit : units) {
            if (!(unit instanceof Block.Segment s) || s.offset() != next) {
                error("units " + units + " do not tile [0," + schedule.messageBytes()
                        + ") (expected: [whole] or contiguous segments in order)");
                return;
            }
            next = s.end();
        }
        if (next != schedule.messageBytes()) {
            error("units " + units + " end at " + next + " (expected: " + schedule.messageBytes() + ")");
        }
    }

    private void checkInstructions() {
        for (int id = 0; id < rankOf.length; id++) {
            Instruction in = instruction(id);
            int rank = rankOf[id];
            Set<Integer> seen = in.peerCount() > 1 ? new HashSet<>() : null;
            for (int i = 0; i < in.peerCount(); i++) {
                int peer = in.peer(i);
                if (peer == rank) {
                    error(where(id) + ": names its own rank as peer");
                }
                if (seen != null && !seen.add(peer)) {
                    error(where(id) + ": names peer " + peer + " twice");
                }
            }
            for (Block b : in.blocks()) {
                String problem = blockProblem(b);
                if (problem != null) {
                    error(where(id) + ": block " + b + " " + problem);
                }
            }
        }
    }

    private String blockProblem(Block b) {
        if (schedule.collective().rooted()) {
            if (b instanceof Block.Pair) {
                return "is an all-to-all block in a " + schedule.collective().label();
            }
            if (b instanceof Block.Segment s && s.end() > schedule.messageBytes()) {
                return "ends past the buffer (messageBytes=" + schedule.messageBytes() + ")";
            }
            return null;
        }
        if (!(b instanceof Block.Pair p)) {
            return "is not an (origin, destination) block in an alltoall";
        }
        if (p.origin() >= schedule.ranks() || p.destination() >= schedule.ranks()) {
            return "names a rank outside 0.." + (schedule.ranks() - 1);
        }
        return null;
    }

    /** Pairs the n-th send s->d with the n-th receive on d naming s. */
    private void match() {
        int ranks = schedule.ranks();
        Map<Long, ArrayDeque<Integer>> posted = new HashMap<>();
        for (int d = 0; d < ranks; d++) {
            for (int id = offsets[d]; id < offsets[d + 1]; id++) {
                Instruction in = instruction(id);
                if (in.isSend()) {
                    continue;
                }
                for (int i = 0; i < in.peerCount(); i++) {
                    posted.computeIfAbsent(channel(in.peer(i), d), k -> new ArrayDeque<>()).add(id);
                }
            }
        }
        int[] filled = new int[rankOf.length];
        for (int s = 0; s < ranks; s++) {
            for (int id = offsets[s]; id < offsets[s + 1]; id++) {
                Instruction in = instruction(id);
                if (!in.isSend()) {
                    continue;
                }
                int d = in.peer();
                ArrayDeque<Integer> queue = posted.get(channel(s, d));
                if (queue == null || queue.isEmpty()) {
                    error("unmatched send: " + where(id) + " has no matching receive on rank " + d);
                    continue;
                }
                int recv = queue.poll();
                Instruction r = instruction(recv);
                if (!r.blocks().equals(in.blocks()) && !new HashSet<>(r.blocks()).equals(new HashSet<>(in.blocks()))) {
                    error("mismatched blocks: " + where(id) + " is matched by " + where(recv));
                }
                matchedReceive[id] = recv;
                if (matchedSends[recv] == null) {
                    matchedSends[recv] = new int[r.peerCount()];
                    Arrays.fill(matchedSends[recv], -1);
                }
                matchedSends[recv][filled[recv]++] = id;
            }
        }
        for (Map.Entry<Long, ArrayDeque<Integer>> e : posted.entrySet()) {
            int src = (int) (e.getKey() / ranks);
            for (int recv : e.getValue()) {
                error("unmatched receive: " + where(recv) + " waits for a message from rank " + src + " that is never sent");
            }
        }
        for (int id = 0; id < rankOf.length; id++) {
            if (matchedSends[id] != null && filled[id] < matchedSends[id].length) {
                matchedSends[id] = Arrays.copyOf(matchedSends[id], filled[id]);
            }
        }
    }

    private long channel(int src, int dst) {
        return (long) src * schedule.ranks() + dst;
    }

    /** Walks each program in order: a send may carry only blocks held at the start or received earlier. */
    private void trackHolding() {
        for (int r = 0; r < schedule.ranks(); r++) {
            Map<Block, Integer> heldFrom = new HashMap<>();
            for (Block b : schedule.initialBlocks(r)) {
                heldFrom.put(b, -1);
            }
            for (int id = offsets[r]; id < offsets[r + 1]; id++) {
                Instruction in = instruction(id);
                if (!in.isSend()) {
                    for (Block b : in.blocks()) {
                        heldFrom.putIfAbsent(b, id);
                    }
                    continue;
                }
                int[] from = new int[in.blocks().size()];
                int n = 0;
                for (Block b : in.blocks()) {
                    Integer source = heldFrom.get(b);
                    if (source == null && b instanceof Block.Segment) {
                        source = heldFrom.get(Block.WHOLE);
                    }
                    if (source == null) {
                        error("send before hold: " + where(id) + " carries " + b
                                + " which rank " + r + " does not hold at that point of its program");
                    } else if (source >= 0 && !contains(from, n, source)) {
                        from[n++] = source;
                    }
                }
                providers[id] = n == 0 ? NONE : Arrays.copyOf(from, n);
            }
        }
    }

    private static boolean contains(int[] values, int n, int value) {
        for (int i = 0; i < n; i++) {
            if (values[i] == value) {
                return true;
            }
        }
        return false;
    }
}
