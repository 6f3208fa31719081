package io.mpirunj.collectives.schedule;

import io.mpirunj.Op;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One entry of a rank's program: send blocks to a peer, receive blocks from a peer, or receive
 * them from whichever of several parents completes first (TTCC: the other copy is dropped).
 * {@code step} is the round in which the message travels, where the algorithm has rounds
 * (informational: execution order is the program order, see {@link Schedule}). Immutable.
 *
 * <p>A SEND may name an explicit network {@linkplain #path() path} (fabric node ids, both ends
 * included) for algorithms whose routes are not the topology's default routing (star-graph
 * Hamiltonian intervals, SEM's chosen torus directions), and a {@linkplain #port() port} for
 * multi-port nodes; without them the fabric routes the message and any free port sends it.
 *
 * <p>COPY and REDUCE are local operations (no peers): they read their one source block
 * ({@link #blocks()}) and write their {@link #target()}, e.g. a reduction combining a received
 * partial result into the receive buffer.
 */
public final class Instruction {

    /** What the instruction does. */
    public enum Kind {
        SEND,
        RECV,
        /** One message from each listed peer is matched; the first to complete delivers, the rest are dropped. */
        RECV_FIRST_OF,
        /** Local: copy the source block into the target block (same size). */
        COPY,
        /** Local: target = target (op) source, element-wise (same size). */
        REDUCE
    }

    private final Kind kind;
    private final int[] peers;
    private final List<Block> blocks;
    private final int step;
    private final int[] path;
    private final int port;
    private final Block target;
    private final Op op;

    /** {@link #port()} of an instruction that may use any free port. */
    public static final int ANY_PORT = -1;

    private static final int[] NO_PATH = new int[0];

    private Instruction(Kind kind, int[] peers, List<Block> blocks, int step) {
        this(kind, peers, blocks, step, NO_PATH, ANY_PORT);
    }

    private Instruction(Kind kind, int[] peers, List<Block> blocks, int step, int[] path, int port) {
        this(kind, peers, blocks, step, path, port, null, null);
    }

    private Instruction(Kind kind, int[] peers, List<Block> blocks, int step, int[] path, int port, Block target,
            Op op) {
        this.kind = kind;
        this.target = target;
        this.op = op;
        this.peers = peers;
        Objects.requireNonNull(blocks, "blocks");
        // A PairBlocks is immutable and compact: copying it would make millions of Pair objects.
        this.blocks = blocks instanceof PairBlocks ? blocks : List.copyOf(blocks);
        this.step = step;
        this.path = path;
        this.port = port;
        if (this.blocks.isEmpty()) {
            throw new IllegalArgumentException(kind + " with no blocks (expected: at least one)");
        }
    }

    public static Instruction send(int to, List<Block> blocks, int step) {
        return new Instruction(Kind.SEND, new int[] {to}, blocks, step);
    }

    /**
     * A send along an explicit network path (fabric node ids from the sender's node to the
     * receiver's, both included; empty for the fabric's own routing) through {@code port}
     * ({@link #ANY_PORT} for any free one).
     */
    public static Instruction send(int to, List<Block> blocks, int step, int[] path, int port) {
        Objects.requireNonNull(path, "path");
        if (path.length == 1) {
            throw new IllegalArgumentException("path of one node (expected: empty, or both ends included)");
        }
        if (port < ANY_PORT) {
            throw new IllegalArgumentException("port=" + port + " (expected: >= 0, or ANY_PORT)");
        }
        return new Instruction(Kind.SEND, new int[] {to}, blocks, step,
                path.length == 0 ? NO_PATH : path.clone(), port);
    }

    public static Instruction recv(int from, List<Block> blocks, int step) {
        return new Instruction(Kind.RECV, new int[] {from}, blocks, step);
    }

    public static Instruction recvFirstOf(int[] from, List<Block> blocks, int step) {
        if (from.length < 1) {
            throw new IllegalArgumentException("RECV_FIRST_OF with no parents (expected: at least one)");
        }
        return new Instruction(Kind.RECV_FIRST_OF, from.clone(), blocks, step);
    }

    /** A local copy of {@code from} into {@code to} (blocks of equal size). */
    public static Instruction copy(Block from, Block to, int step) {
        return new Instruction(Kind.COPY, NO_PATH, List.of(from), step, NO_PATH, ANY_PORT,
                Objects.requireNonNull(to, "to"), null);
    }

    /** A local reduction {@code into = into (op) from}, element-wise (blocks of equal size). */
    public static Instruction reduce(Op op, Block from, Block into, int step) {
        return new Instruction(Kind.REDUCE, NO_PATH, List.of(from), step, NO_PATH, ANY_PORT,
                Objects.requireNonNull(into, "into"), Objects.requireNonNull(op, "op"));
    }

    public Kind kind() {
        return kind;
    }

    public boolean isSend() {
        return kind == Kind.SEND;
    }

    /** RECV or RECV_FIRST_OF. */
    public boolean isReceive() {
        return kind == Kind.RECV || kind == Kind.RECV_FIRST_OF;
    }

    /** COPY or REDUCE: no message, data moves within the rank. */
    public boolean isLocal() {
        return kind == Kind.COPY || kind == Kind.REDUCE;
    }

    /** The block a COPY or REDUCE writes; null for messages. */
    public Block target() {
        return target;
    }

    /** The operation of a REDUCE; null otherwise. */
    public Op op() {
        return op;
    }

    /** The single peer of a SEND or RECV; the first parent of a RECV_FIRST_OF. */
    public int peer() {
        return peers[0];
    }

    public int peerCount() {
        return peers.length;
    }

    public int peer(int index) {
        return peers[index];
    }

    /** A copy of the peers. */
    public int[] peers() {
        return peers.clone();
    }

    public List<Block> blocks() {
        return blocks;
    }

    public int step() {
        return step;
    }

    /** True when this send names its own network path. */
    public boolean hasPath() {
        return path.length > 0;
    }

    /** A copy of the explicit path (fabric node ids, both ends included); empty when the fabric routes. */
    public int[] path() {
        return path.clone();
    }

    /** The port this send uses on a multi-port node, or {@link #ANY_PORT}. */
    public int port() {
        return port;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Instruction other && step == other.step && sameAction(other);
    }

    /**
     * True when this does what {@code other} does, whatever their steps: the runner ignores steps (they
     * number rounds for the simulator's round count and the pictures), so two such instructions run alike.
     */
    public boolean sameAction(Instruction other) {
        return kind == other.kind && port == other.port && Arrays.equals(peers, other.peers)
                && blocks.equals(other.blocks) && Arrays.equals(path, other.path) && Objects.equals(target, other.target)
                && op == other.op;
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, Arrays.hashCode(peers), blocks, step, port, Arrays.hashCode(path), target, op);
    }

    /** E.g. {@code SEND whole -> 3 (step 2)}, {@code RECV_FIRST_OF [0,64) <- {1,4} (step 1)}. */
    @Override
    public String toString() {
        if (isLocal()) {
            return kind + (op == null ? "" : " " + op) + " " + blocks.get(0) + " -> " + target + " (step " + step + ")";
        }
        String blockText = blocks.size() == 1 ? blocks.get(0).toString() : blocks.toString();
        String peerText = peers.length == 1 ? Integer.toString(peers[0])
                : Arrays.toString(peers).replace('[', '{').replace(']', '}').replace(" ", "");
        return kind + " " + blockText + (kind == Kind.SEND ? " -> " : " <- ") + peerText + " (step " + step
                + (port == ANY_PORT ? "" : ", port " + port)
                + (path.length == 0 ? "" : ", path " + Arrays.toString(path).replace(" ", "")) + ")";
    }
}
