package io.mpirunj.collectives.schedule;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one analysis of a schedule that the runner, the simulator and the verifier share:
 * <ul>
 *   <li>global instruction ids (id = offset(rank) + index, rank by rank);</li>
 *   <li>which send matches which receive (the n-th send s->d meets the n-th receive on d naming s);</li>
 *   <li>where every block an instruction names lives on its rank ({@link #locations}), including the
 *       scratch slots of all-to-all blocks in transit;</li>
 *   <li>the dependencies within a rank: which earlier receive or local operation provides the bytes an
 *       instruction reads ({@link #provider}), and which earlier instructions must have completed before
 *       an instruction may overwrite bytes ({@link #hazard}: a later write waits for earlier reads and
 *       writes of the same bytes).</li>
 * </ul>
 * Problems found on the way (bad peers or blocks, unmatched messages, reads of bytes not yet held)
 * are collected in {@link #errors()}; the analysis never throws on a broken schedule.
 *
 * <h2>Holding</h2>
 * One-to-many: the root holds its whole receive buffer. All-to-all: every rank holds its send
 * buffer's blocks (r, d). Other collectives: every rank's send buffer is valid. Everything else is
 * held once a receive or local operation earlier in the program has written it.
 */
public final class ProgramAnalysis {

    /** Errors beyond this many are counted, not stored. */
    static final int MAX_ERRORS = 50;

    /** Where a block's bytes live on a rank: bytes [start, end) of buffer {@code role}. */
    public record Location(Block.Role role, long start, long end, int block) {
        /**
         * {@code block} is the all-to-all block index of a {@link Block.Pair} in the send buffer
         * (its destination) or receive buffer (its origin), so a runner with per-block displacements
         * (alltoallv) can place it; -1 otherwise. {@code start} is then the offset in the packed
         * layout of the schedule's {@link Schedule#pairBytes} sizes.
         */
        public long bytes() {
            return end - start;
        }
    }

    private static final int[] NONE = new int[0];
    private static final long VALID_SEND_BUFFER = Long.MAX_VALUE / 4;

    private final Schedule schedule;
    private final int[] offsets;
    private final int[] rankOf;
    private final int[] matchedReceive;
    private final int[][] matchedSends;
    private final int[][] providers;
    private final int[][] hazards;
    private final Location[][] locations;
    private final Location[] targets;
    private final long[] scratchBytes;
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
        hazards = new int[total][];
        locations = new Location[total][];
        targets = new Location[total];
        scratchBytes = new long[ranks];
        checkUnits();
        checkInstructions();
        match();
        for (int r = 0; r < ranks; r++) {
            trackRank(r);
        }
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
    public int matchedSendCount(int receiveId) {
        return matchedSends[receiveId] == null ? 0 : matchedSends[receiveId].length;
    }

    public int matchedSend(int receiveId, int i) {
        return matchedSends[receiveId][i];
    }

    /**
     * How many earlier instructions of the same rank (receives or local operations) wrote bytes
     * this instruction reads: a send's blocks, a local operation's source (and a REDUCE's target).
     * 0 for data held from the start.
     */
    public int providerCount(int id) {
        return providers[id] == null ? 0 : providers[id].length;
    }

    /** The i-th provider of an instruction. */
    public int provider(int id, int i) {
        return providers[id][i];
    }

    /**
     * How many earlier instructions of the same rank must have completed before this receive or
     * local operation may write its bytes (they read or write the same bytes). Always 0 for sends.
     */
    public int hazardCount(int id) {
        return hazards[id] == null ? 0 : hazards[id].length;
    }

    public int hazard(int id, int i) {
        return hazards[id][i];
    }

    /**
     * Where the bytes of a message instruction's blocks live on its rank, in wire order (the order
     * both ends lay them out in the message), or where a local operation's source lives. Null when
     * the analysis found the instruction broken.
     */
    public List<Location> locations(int id) {
        return locations[id] == null ? null : List.of(locations[id]);
    }

    /** The location a local operation writes; null for messages. */
    public Location target(int id) {
        return targets[id];
    }

    /** Scratch bytes {@code rank} needs (all-to-all blocks in transit and {@link Block.Role#SCRATCH} ranges). */
    public long scratchBytes(int rank) {
        return scratchBytes[rank];
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

    /** "rank 3 #2 (SEND whole -> 5 (step 2))": how every problem names an instruction. */
    public String where(int id) {
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
            if (in.isLocal()) {
                String problem = blockProblem(in.target());
                if (problem != null) {
                    error(where(id) + ": block " + in.target() + " " + problem);
                } else if (schedule.bytes(in.blocks()) != schedule.bytes(List.of(in.target()))) {
                    error(where(id) + ": source and target differ in size (" + schedule.bytes(in.blocks()) + " and "
                            + schedule.bytes(List.of(in.target())) + " bytes)");
                }
            }
        }
    }

    private String blockProblem(Block b) {
        Collective c = schedule.collective();
        if (b instanceof Block.Range) {
            return null;
        }
        if (b instanceof Block.Pair p) {
            if (!c.pairs()) {
                return "is an all-to-all block in a " + c.label();
            }
            if (p.origin() >= schedule.ranks() || p.destination() >= schedule.ranks()) {
                return "names a rank outside 0.." + (schedule.ranks() - 1);
            }
            return null;
        }
        if (!c.rooted()) {
            return c.pairs() ? "is not an (origin, destination) block in an alltoall"
                    : "is a whole-buffer block in a " + c.label() + " (expected: ranges of named buffers)";
        }
        if (b instanceof Block.Segment s && s.end() > schedule.messageBytes()) {
            return "ends past the buffer (messageBytes=" + schedule.messageBytes() + ")";
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
                if (!in.isReceive()) {
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
                if (!sameContent(in.blocks(), r.blocks())) {
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

    /**
     * A send and its receive must name the same blocks (in any order), except that ranges of named
     * buffers change place as they travel: a message with a {@link Block.Range} need only agree in size.
     */
    private boolean sameContent(List<Block> sent, List<Block> received) {
        if (hasRange(sent) || hasRange(received)) {
            return schedule.bytes(sent) == schedule.bytes(received);
        }
        return sent.equals(received) || new HashSet<>(sent).equals(new HashSet<>(received));
    }

    private static boolean hasRange(List<Block> blocks) {
        for (Block b : blocks) {
            if (b instanceof Block.Range) {
                return true;
            }
        }
        return false;
    }

    private long channel(int src, int dst) {
        return (long) src * schedule.ranks() + dst;
    }

    /**
     * The order a message lays its blocks out in: as listed when it has ranges (both ends list them
     * in the same order), otherwise sorted (whole first, segments by offset, pairs by (origin,
     * destination)), so the two ends may list the same blocks in different orders.
     */
    private static List<Block> wireOrder(List<Block> blocks) {
        if (blocks.size() == 1 || hasRange(blocks)) {
            return blocks;
        }
        List<Block> sorted = new ArrayList<>(blocks);
        sorted.sort(WIRE_ORDER);
        return sorted;
    }

    private static final Comparator<Block> WIRE_ORDER = Comparator
            .comparingInt((Block b) -> b instanceof Block.Whole ? 0 : b instanceof Block.Segment ? 1 : 2)
            .thenComparingLong(b -> b instanceof Block.Segment s ? s.offset() : 0)
            .thenComparingInt(b -> b instanceof Block.Pair p ? p.origin() : 0)
            .thenComparingInt(b -> b instanceof Block.Pair p ? p.destination() : 0);

    /** Walks one rank's program in order: locations, providers and hazards. */
    private void trackRank(int r) {
        Tracker t = new Tracker(r);
        for (int id = offsets[r]; id < offsets[r + 1]; id++) {
            Instruction in = instruction(id);
            List<Block> order = in.isLocal() ? in.blocks() : wireOrder(in.blocks());
            Location[] where = new Location[order.size()];
            boolean ok = true;
            for (int i = 0; i < where.length; i++) {
                where[i] = t.locate(order.get(i), in.isReceive(), id);
                ok &= where[i] != null;
            }
            Location target = in.isLocal() ? t.locate(in.target(), true, id) : null;
            if (!ok || (in.isLocal() && target == null)) {
                continue;
            }
            locations[id] = where;
            targets[id] = target;
            IdSet reads = new IdSet();
            IdSet waits = new IdSet();
            if (in.isSend() || in.isLocal()) {
                for (Location l : where) {
                    t.read(l, id, reads, in);
                }
            }
            if (in.kind() == Instruction.Kind.REDUCE) {
                t.read(target, id, reads, in);
            }
            if (in.isReceive()) {
                for (Location l : where) {
                    t.write(l, id, waits);
                }
            } else if (in.isLocal()) {
                t.write(target, id, waits);
            }
            providers[id] = reads.toArray();
            waits.removeAll(reads); // already waited for as providers
            hazards[id] = waits.toArray();
        }
        scratchBytes[r] = t.scratchEnd;
    }

    /** A small insertion-ordered set of instruction ids. */
    private static final class IdSet {
        private int[] ids = NONE;
        private int n;

        void add(int id) {
            for (int i = 0; i < n; i++) {
                if (ids[i] == id) {
                    return;
                }
            }
            if (n == ids.length) {
                ids = Arrays.copyOf(ids, Math.max(4, 2 * n));
            }
            ids[n++] = id;
        }

        /** Adds an id no smaller than every id added so far (a program walk's order): no search. */
        void addIncreasing(int id) {
            if (n > 0 && ids[n - 1] == id) {
                return;
            }
            if (n == ids.length) {
                ids = Arrays.copyOf(ids, Math.max(4, 2 * n));
            }
            ids[n++] = id;
        }

        void removeAll(IdSet other) {
            int k = 0;
            for (int i = 0; i < n; i++) {
                boolean drop = false;
                for (int j = 0; j < other.n; j++) {
                    drop |= other.ids[j] == ids[i];
                }
                if (!drop) {
                    ids[k++] = ids[i];
                }
            }
            n = k;
        }

        int[] toArray() {
            return n == 0 ? NONE : Arrays.copyOf(ids, n);
        }
    }

    /**
     * One rank's buffers as disjoint intervals, each remembering its last writer (-1: held from the
     * start) and the instructions that read it since.
     */
    private final class Tracker {
        /*
         * Tracking coordinates, so that empty blocks still carry dependencies (a 0-byte bcast, a
         * barrier's tokens): bytes [s, e) of a buffer are [2s, 2e) of that buffer's space, an empty
         * range at s is [2s, 2s + 1); all-to-all blocks are tracked by index in spaces of their own
         * (block d of the send buffer, block o of the receive buffer, transit slot k), so empty pairs
         * stay apart too.
         */
        private static final int BYTE_SPACES = 3;
        private static final int TRANSIT_SPACE = 2 * BYTE_SPACES;

        private final int rank;
        private final java.util.TreeMap<Long, Interval>[] spaces;
        /** Scratch slots of all-to-all blocks in transit through this rank. */
        private Map<Block.Pair, Location> transit;
        private Map<Block.Pair, Integer> transitSlot;
        long scratchEnd;

        @SuppressWarnings("unchecked")
        Tracker(int rank) {
            this.rank = rank;
            this.spaces = new java.util.TreeMap[TRANSIT_SPACE + 1];
            Collective c = schedule.collective();
            if (c.rooted()) {
                if (rank == schedule.root()) {
                    held(Block.Role.RECV.ordinal(), 0, Math.max(1, 2 * schedule.messageBytes()));
                }
            } else if (c.pairs()) {
                held(BYTE_SPACES + Block.Role.SEND.ordinal(), 0, schedule.ranks());
            } else {
                held(Block.Role.SEND.ordinal(), 0, VALID_SEND_BUFFER);
            }
        }

        private void held(int space, long lo, long hi) {
            map(space).put(lo, new Interval(lo, hi, -1));
        }

        private java.util.TreeMap<Long, Interval> map(int space) {
            java.util.TreeMap<Long, Interval> m = spaces[space];
            if (m == null) {
                m = new java.util.TreeMap<>();
                spaces[space] = m;
            }
            return m;
        }

        private int space(Location l) {
            if (l.block() >= 0) {
                return BYTE_SPACES + l.role().ordinal();
            }
            return l.role() == Block.Role.SCRATCH && transitSlot != null && isTransit(l) ? TRANSIT_SPACE
                    : l.role().ordinal();
        }

        private boolean isTransit(Location l) {
            return transitLo.containsKey(l.start());
        }

        /** Transit slot start byte -> slot number. */
        private final Map<Long, Integer> transitLo = new HashMap<>();

        private long lo(Location l) {
            if (l.block() >= 0) {
                return l.block();
            }
            if (space(l) == TRANSIT_SPACE) {
                return transitLo.get(l.start());
            }
            return 2 * l.start();
        }

        private long hi(Location l) {
            if (l.block() >= 0 || space(l) == TRANSIT_SPACE) {
                return lo(l) + 1;
            }
            return l.bytes() == 0 ? 2 * l.start() + 1 : 2 * l.end();
        }

        /**
         * Where {@code b} lives on this rank; a pair in transit gets a scratch slot when first written.
         * The own block (r, r) is read from the send buffer and written to the receive buffer (a COPY
         * of it is the local part of an all-to-all).
         */
        Location locate(Block b, boolean writing, int id) {
            if (b instanceof Block.Whole) {
                return new Location(Block.Role.RECV, 0, schedule.messageBytes(), -1);
            }
            if (b instanceof Block.Segment s) {
                return new Location(Block.Role.RECV, s.offset(), s.end(), -1);
            }
            if (b instanceof Block.Range g) {
                if (g.role() == Block.Role.SCRATCH) {
                    scratchEnd = Math.max(scratchEnd, g.end());
                }
                return new Location(g.role(), g.offset(), g.end(), -1);
            }
            Block.Pair p = (Block.Pair) b;
            long bytes = schedule.pairBytes(p.origin(), p.destination());
            if (p.origin() == rank && !(writing && p.destination() == rank)) {
                long start = packedOffset(rank, p.destination(), true);
                return new Location(Block.Role.SEND, start, start + bytes, p.destination());
            }
            if (p.destination() == rank) {
                long start = packedOffset(p.origin(), rank, false);
                return new Location(Block.Role.RECV, start, start + bytes, p.origin());
            }
            if (transit == null) {
                transit = new HashMap<>();
                transitSlot = new HashMap<>();
            }
            Location slot = transit.get(p);
            if (slot == null) {
                if (!writing) {
                    error("send before hold: " + where(id) + " carries " + b + " which rank " + rank
                            + " does not hold at that point of its program");
                    return null;
                }
                // Transit slots follow every explicit scratch range (ranges are located first or not at all).
                slot = new Location(Block.Role.SCRATCH, scratchEnd, scratchEnd + bytes, -1);
                transitLo.put(scratchEnd, transit.size());
                transitSlot.put(p, transit.size());
                scratchEnd += Math.max(bytes, 1);
                transit.put(p, slot);
            }
            return slot;
        }

        /** Records a read; adds the writers of the bytes read to {@code providers}; reports bytes not held. */
        void read(Location l, int id, IdSet providersOut, Instruction in) {
            java.util.TreeMap<Long, Interval> map = map(space(l));
            long lo = lo(l);
            long hi = hi(l);
            split(map, lo);
            split(map, hi);
            long covered = lo;
            for (Interval iv : map.subMap(lo, true, hi, false).values()) {
                if (iv.start > covered) {
                    break;
                }
                if (iv.writer >= 0) {
                    providersOut.add(iv.writer);
                }
                iv.readers.addIncreasing(id);
                covered = iv.end;
            }
            if (covered < hi) {
                error("send before hold: " + where(id) + " " + (in.isSend() ? "carries" : "reads") + " "
                        + describe(l) + " which rank " + rank + " does not hold at that point of its program");
            }
        }

        /** Records a write; adds the earlier readers and writers of those bytes to {@code waitsOut}. */
        void write(Location l, int id, IdSet waitsOut) {
            java.util.TreeMap<Long, Interval> map = map(space(l));
            long lo = lo(l);
            long hi = hi(l);
            split(map, lo);
            split(map, hi);
            java.util.NavigableMap<Long, Interval> inside = map.subMap(lo, true, hi, false);
            for (Interval iv : inside.values()) {
                if (iv.writer >= 0) {
                    waitsOut.add(iv.writer);
                }
                for (int i = 0; i < iv.readers.n; i++) {
                    if (iv.readers.ids[i] != id) { // a REDUCE reads its own target
                        waitsOut.add(iv.readers.ids[i]);
                    }
                }
            }
            inside.clear();
            map.put(lo, new Interval(lo, hi, id));
        }

        /** Makes {@code at} an interval boundary. */
        private void split(java.util.TreeMap<Long, Interval> map, long at) {
            Map.Entry<Long, Interval> e = map.lowerEntry(at);
            if (e == null || e.getValue().end <= at) {
                return;
            }
            Interval iv = e.getValue();
            Interval right = new Interval(at, iv.end, iv.writer);
            for (int i = 0; i < iv.readers.n; i++) {
                right.readers.addIncreasing(iv.readers.ids[i]);
            }
            iv.end = at;
            map.put(at, right);
        }

        private String describe(Location l) {
            return l.role().label() + "[" + l.start() + "," + l.end() + ")";
        }
    }

    /**
     * Offset of block {@code index} in the packed layout of a rank's all-to-all buffer: the send
     * buffer of {@code rank} (blocks (rank, 0..index-1) before it) or the receive buffer of
     * {@code rank} = index argument order swapped (blocks (0..index-1, rank) before it).
     */
    private long packedOffset(int a, int b, boolean sendSide) {
        long offset = 0;
        if (!schedule.hasPairBytes()) {
            return (long) (sendSide ? b : a) * schedule.messageBytes();
        }
        if (sendSide) {
            for (int d = 0; d < b; d++) {
                offset += schedule.pairBytes(a, d);
            }
        } else {
            for (int o = 0; o < a; o++) {
                offset += schedule.pairBytes(o, b);
            }
        }
        return offset;
    }

    /** Bytes [start, end) with its last writer (-1: held from the start) and readers since. */
    private static final class Interval {
        final long start;
        long end;
        final int writer;
        final IdSet readers = new IdSet();

        Interval(long start, long end, int writer) {
            this.start = start;
            this.end = end;
            this.writer = writer;
        }
    }
}
