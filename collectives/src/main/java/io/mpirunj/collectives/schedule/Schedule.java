package io.mpirunj.collectives.schedule;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A collective written down as data: for each rank, an ordered program of {@link Instruction}s.
 * Built once by an algorithm's builder; then executed by the runner, evaluated by the simulator,
 * checked by the {@link Verifier} and exported. Immutable.
 *
 * <h2>Ranks</h2>
 * Schedule ranks are indices 0..ranks-1 into the participant list (for a multicast, the group;
 * {@link #root()} is the root's index in it); the runner maps them to communicator ranks.
 *
 * <h2>Data</h2>
 * For bcast/multicast the buffer is {@link #messageBytes()} long and is moved as the
 * {@link #units()}: {@code [WHOLE]}, or the segments of a pipelined variant. The root starts
 * holding the whole buffer; every other rank must receive every unit exactly once. For
 * all-to-all, rank r starts with blocks (r, d) for every d, and must receive (o, r) for every
 * o != r; {@code messageBytes} is then the size of one block ({@link #pairBytes(int, int)} when the
 * builder gave per-pair sizes, alltoallv) and {@code root} is -1. The other collectives use
 * {@link Block.Range} blocks of named buffers and local COPY/REDUCE instructions; see {@link Collective}.
 *
 * <h2>Execution semantics (shared by the runner, the simulator and the verifier)</h2>
 * <ul>
 *   <li>Receives are posted up front. The n-th message sent from s to d matches the n-th
 *       receive instruction of d that names s (MPI's non-overtaking order per pair).
 *       A RECV_FIRST_OF names several parents and matches one message from each; the first to
 *       complete delivers its blocks, the others are dropped.</li>
 *   <li>Sends leave in program order. A send starts once the rank holds every block it carries:
 *       blocks held at the start, or delivered by a receive placed <em>earlier</em> in the
 *       program. A send does not wait for unrelated earlier receives.</li>
 * </ul>
 */
public final class Schedule {

    private final Collective collective;
    private final String algorithm;
    private final int ranks;
    private final int root;
    private final long messageBytes;
    private final List<Block> units;
    private final String note;
    private final long[][] pairBytes;
    private final List<List<Instruction>> programs;

    private Schedule(Builder b, List<List<Instruction>> programs) {
        this.pairBytes = b.pairBytes;
        this.collective = b.collective;
        this.algorithm = b.algorithm;
        this.ranks = b.ranks;
        this.root = b.root;
        this.messageBytes = b.messageBytes;
        this.units = b.units;
        this.note = b.note;
        this.programs = programs;
    }

    private Schedule(Schedule base, Collective collective, long messageBytes) {
        this.collective = collective;
        this.algorithm = base.algorithm;
        this.ranks = base.ranks;
        this.root = base.root;
        this.messageBytes = messageBytes;
        this.units = base.units;
        this.note = base.note;
        this.pairBytes = base.pairBytes;
        this.programs = base.programs;
    }

    /** Starts a schedule. For a collective without a root ({@link Collective#hasRoot()}) pass root -1. */
    public static Builder builder(Collective collective, String algorithm, int ranks, int root, long messageBytes) {
        return new Builder(collective, algorithm, ranks, root, messageBytes);
    }

    /** The same programs relabelled, e.g. a multicast over all ranks as a bcast. */
    public Schedule withCollective(Collective newCollective) {
        if (newCollective.rooted() != collective.rooted()) {
            throw new IllegalArgumentException("cannot relabel " + collective.label() + " as " + newCollective.label());
        }
        return newCollective == collective ? this : new Schedule(this, newCollective, messageBytes);
    }

    /**
     * True if the programs do not depend on the buffer's size: a rooted schedule that moves the whole buffer only, or
     * an all-to-all that moves whole (origin, destination) blocks, all of one size.
     */
    public boolean sizeFree() {
        return sizeBound() == null;
    }

    /**
     * Why the programs hold for {@link #messageBytes} only ("cuts its 100-byte buffer into 4 blocks"), or null when
     * they are {@link #sizeFree}.
     */
    public String sizeBound() {
        if (collective.rooted()) {
            return units.equals(Block.WHOLE_ONLY) ? null
                    : "cuts its " + messageBytes + "-byte buffer into " + units.size() + " blocks";
        }
        if (collective.pairs() && pairBytes != null) {
            return "gives its (origin, destination) blocks sizes of their own (pairBytes)";
        }
        boolean wholePairs = collective.pairs() && programs.stream().flatMap(List::stream)
                .allMatch(in -> (in.target() == null || in.target() instanceof Block.Pair)
                        && in.blocks().stream().allMatch(Block.Pair.class::isInstance));
        return wholePairs ? null : "names byte ranges of its buffers";
    }

    /** The same programs over a buffer of {@code bytes}; only a {@link #sizeFree} schedule can be resized. */
    public Schedule withMessageBytes(long bytes) {
        String bound = sizeBound();
        if (bound != null) {
            throw new IllegalArgumentException(this + " " + bound + ": it cannot be resized to " + bytes + " bytes");
        }
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes=" + bytes + " (expected: >= 0)");
        }
        return bytes == messageBytes ? this : new Schedule(this, collective, bytes);
    }

    public Collective collective() {
        return collective;
    }

    public String algorithm() {
        return algorithm;
    }

    public int ranks() {
        return ranks;
    }

    /** Index of the root among the participants; -1 for a collective without a root. */
    public int root() {
        return root;
    }

    /** Buffer size (bcast/multicast) or per-block size (all-to-all), in bytes. */
    public long messageBytes() {
        return messageBytes;
    }

    /** How a rooted collective's buffer is cut into blocks: {@code [WHOLE]} or its segments. */
    public List<Block> units() {
        return units;
    }

    /** Bytes of the all-to-all block (origin, destination): {@link #messageBytes()} unless the builder gave sizes. */
    public long pairBytes(int origin, int destination) {
        return pairBytes == null ? messageBytes : pairBytes[origin][destination];
    }

    /** True when the builder gave per-pair sizes (alltoallv). */
    public boolean hasPairBytes() {
        return pairBytes != null;
    }

    /** Free text the builder attached, e.g. a fallback it took; empty when none. */
    public String note() {
        return note;
    }

    public List<Instruction> program(int rank) {
        return programs.get(rank);
    }

    /**
     * True when the runner runs {@code other} exactly as this: the same collective, participants, root,
     * sizes and units, and rank by rank the same instructions in the same order
     * ({@link Instruction#sameAction}); the algorithm's name, its note and the step numbers may differ.
     * Two algorithms that build such schedules for a call are one algorithm for that call (e.g. binomial,
     * opt-tree and binary-split at 8 ranks when a message's send and delivery cost about the same).
     */
    public boolean runsLike(Schedule other) {
        if (collective != other.collective || ranks != other.ranks || root != other.root
                || messageBytes != other.messageBytes || !units.equals(other.units)
                || !Arrays.deepEquals(pairBytes, other.pairBytes)) {
            return false;
        }
        for (int r = 0; r < ranks; r++) {
            List<Instruction> mine = programs.get(r);
            List<Instruction> theirs = other.programs.get(r);
            if (mine.size() != theirs.size()) {
                return false;
            }
            for (int i = 0; i < mine.size(); i++) {
                if (!mine.get(i).sameAction(theirs.get(i))) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Total number of instructions over all ranks. */
    public int instructionCount() {
        int n = 0;
        for (List<Instruction> p : programs) {
            n += p.size();
        }
        return n;
    }

    /** Bytes a message carrying {@code blocks} moves. */
    public long bytes(List<Block> blocks) {
        long total = 0;
        for (Block b : blocks) {
            total += b instanceof Block.Pair p ? pairBytes(p.origin(), p.destination()) : b.bytes(messageBytes);
        }
        return total;
    }

    /**
     * What {@code rank} holds before the collective starts: the root's buffer (one-to-many), the
     * rank's own pairs (all-to-all); empty for the other collectives, whose send buffer is valid.
     */
    public List<Block> initialBlocks(int rank) {
        if (collective.rooted()) {
            return rank == root ? Block.WHOLE_ONLY : List.of();
        }
        if (!collective.pairs()) {
            return List.of();
        }
        List<Block> own = new ArrayList<>(ranks);
        for (int d = 0; d < ranks; d++) {
            own.add(new Block.Pair(rank, d));
        }
        return own;
    }

    /** What {@code rank} must receive, each exactly once (empty when the contract is not block-based). */
    public List<Block> expectedBlocks(int rank) {
        if (collective.rooted()) {
            return rank == root ? List.of() : units;
        }
        if (!collective.pairs()) {
            return List.of();
        }
        List<Block> incoming = new ArrayList<>(ranks - 1);
        for (int o = 0; o < ranks; o++) {
            if (o != rank) {
                incoming.add(new Block.Pair(o, rank));
            }
        }
        return incoming;
    }

    /** A readable dump: one line per rank with its program. */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        sb.append(collective.label()).append(' ').append(algorithm).append(": ranks=").append(ranks)
                .append(" root=").append(root).append(" bytes=").append(messageBytes);
        if (!note.isEmpty()) {
            sb.append(" (").append(note).append(')');
        }
        for (int r = 0; r < ranks; r++) {
            sb.append('\n').append("  ").append(r).append(": ").append(programs.get(r));
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return collective.label() + " " + algorithm + " ranks=" + ranks + " root=" + root + " bytes=" + messageBytes;
    }

    /**
     * The argument checks of every rooted builder: {@code ranks >= 1}, {@code root} in
     * {@code 0..ranks-1}, {@code messageBytes >= 0}, in that order.
     *
     * @throws IllegalArgumentException naming the first bad argument and what was expected
     */
    public static void checkRooted(int ranks, int root, long messageBytes) {
        checkRanks(ranks);
        if (root < 0 || root >= ranks) {
            throw new IllegalArgumentException("root=" + root + " (expected: 0.." + (ranks - 1) + ")");
        }
        checkMessageBytes(messageBytes);
    }

    private static void checkRanks(int ranks) {
        if (ranks < 1) {
            throw new IllegalArgumentException("ranks=" + ranks + " (expected: >= 1)");
        }
    }

    private static void checkMessageBytes(long messageBytes) {
        if (messageBytes < 0) {
            throw new IllegalArgumentException("messageBytes=" + messageBytes + " (expected: >= 0)");
        }
    }

    /**
     * Collects per-rank programs. Validates indices as they are added (out-of-range peers are
     * programming errors); semantic problems are the {@link Verifier}'s job, so a broken schedule
     * can still be built and examined.
     */
    public static final class Builder {
        private final Collective collective;
        private final String algorithm;
        private final int ranks;
        private final int root;
        private final long messageBytes;
        private final List<List<Instruction>> programs;
        private List<Block> units = Block.WHOLE_ONLY;
        private String note = "";
        private long[][] pairBytes;

        private Builder(Collective collective, String algorithm, int ranks, int root, long messageBytes) {
            this.collective = Objects.requireNonNull(collective, "collective");
            this.algorithm = Objects.requireNonNull(algorithm, "algorithm");
            if (collective.hasRoot()) {
                checkRooted(ranks, root, messageBytes);
            } else {
                checkRanks(ranks);
                if (root != -1) {
                    throw new IllegalArgumentException("root=" + root + " (expected: -1 for " + collective.label() + ")");
                }
                checkMessageBytes(messageBytes);
            }
            this.ranks = ranks;
            this.root = root;
            this.messageBytes = messageBytes;
            this.programs = new ArrayList<>(ranks);
            for (int r = 0; r < ranks; r++) {
                programs.add(new ArrayList<>(2));
            }
        }

        /** The blocks a rooted collective's buffer is cut into (default {@code [WHOLE]}). */
        public Builder units(List<Block> newUnits) {
            if (!collective.rooted()) {
                throw new IllegalArgumentException(collective.label() + " has no units: its blocks are (origin, destination) pairs");
            }
            this.units = List.copyOf(newUnits);
            return this;
        }

        /**
         * Per-pair sizes of an all-to-all ({@code bytes[o][d]} for block (o, d), alltoallv); without
         * them every block is {@code messageBytes} long.
         */
        public Builder pairBytes(long[][] bytes) {
            if (!collective.pairs()) {
                throw new IllegalArgumentException(collective.label() + " has no (origin, destination) blocks");
            }
            if (bytes.length != ranks) {
                throw new IllegalArgumentException("pairBytes has " + bytes.length + " rows (expected: " + ranks + ")");
            }
            long[][] copy = new long[ranks][];
            for (int o = 0; o < ranks; o++) {
                if (bytes[o].length != ranks) {
                    throw new IllegalArgumentException("pairBytes[" + o + "] has " + bytes[o].length
                            + " entries (expected: " + ranks + ")");
                }
                for (long b : bytes[o]) {
                    checkMessageBytes(b);
                }
                copy[o] = bytes[o].clone();
            }
            this.pairBytes = copy;
            return this;
        }

        /** Appends a local copy of {@code from} into {@code to} to {@code rank}'s program. */
        public Builder copy(int rank, int step, Block from, Block to) {
            return add(rank, Instruction.copy(from, to, step));
        }

        /**
         * All-to-all: every rank copies its own block (r, r) from its send buffer to its receive buffer
         * (a COPY of the pair reads the one and writes the other), at step 0.
         */
        public Builder copyOwnPairBlocks() {
            for (int r = 0; r < ranks; r++) {
                Block.Pair own = new Block.Pair(r, r);
                copy(r, 0, own, own);
            }
            return this;
        }

        /** Appends a local reduction {@code into = into (op) from} to {@code rank}'s program. */
        public Builder reduce(int rank, int step, io.mpirunj.Op op, Block from, Block into) {
            return add(rank, Instruction.reduce(op, from, into, step));
        }

        /** Appends any instruction (e.g. one read from a file); peers are checked as by the other methods. */
        public Builder instruction(int rank, Instruction instruction) {
            for (int i = 0; i < instruction.peerCount(); i++) {
                checkRank("peer", instruction.peer(i));
            }
            return add(rank, instruction);
        }

        public Builder note(String newNote) {
            this.note = Objects.requireNonNull(newNote, "note");
            return this;
        }

        /** Appends to {@code rank}'s program: send {@code blocks} to {@code to}. */
        public Builder send(int rank, int to, int step, List<Block> blocks) {
            return add(rank, Instruction.send(checkRank("peer", to), blocks, step));
        }

        /**
         * Appends a send along an explicit fabric {@code path} (node ids, both ends included)
         * through {@code port} ({@link Instruction#ANY_PORT} for any free one).
         */
        public Builder send(int rank, int to, int step, List<Block> blocks, int[] path, int port) {
            return add(rank, Instruction.send(checkRank("peer", to), blocks, step, path, port));
        }

        /** Appends: send the whole buffer. */
        public Builder send(int rank, int to, int step) {
            return send(rank, to, step, Block.WHOLE_ONLY);
        }

        /** Appends to {@code rank}'s program: receive {@code blocks} from {@code from}. */
        public Builder recv(int rank, int from, int step, List<Block> blocks) {
            return add(rank, Instruction.recv(checkRank("peer", from), blocks, step));
        }

        /** Appends: receive the whole buffer. */
        public Builder recv(int rank, int from, int step) {
            return recv(rank, from, step, Block.WHOLE_ONLY);
        }

        /** Appends: receive {@code blocks} from whichever of {@code from} completes first. */
        public Builder recvFirstOf(int rank, int[] from, int step, List<Block> blocks) {
            for (int p : from) {
                checkRank("peer", p);
            }
            return add(rank, Instruction.recvFirstOf(from, blocks, step));
        }

        public int ranks() {
            return ranks;
        }

        private Builder add(int rank, Instruction instruction) {
            programs.get(checkRank("rank", rank)).add(instruction);
            return this;
        }

        private int checkRank(String what, int value) {
            if (value < 0 || value >= ranks) {
                throw new IllegalArgumentException(what + "=" + value + " (expected: 0.." + (ranks - 1) + ")");
            }
            return value;
        }

        public Schedule build() {
            List<List<Instruction>> frozen = new ArrayList<>(ranks);
            for (List<Instruction> p : programs) {
                frozen.add(List.copyOf(p));
            }
            return new Schedule(this, Collections.unmodifiableList(frozen));
        }
    }
}
