package io.mpirunj.collectives.schedule;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One entry of a rank's program: send blocks to a peer, receive blocks from a peer, or receive
 * them from whichever of several parents completes first (TTCC: the other copy is dropped).
 * {@code step} is the round in which the message travels, where the algorithm has rounds
 * (informational: execution order is the program order, see {@link Schedule}). Immutable.
 */
public final class Instruction {

    /** What the instruction does. */
    public enum Kind {
        SEND,
        RECV,
        /** One message from each listed peer is matched; the first to complete delivers, the rest are dropped. */
        RECV_FIRST_OF
    }

    private final Kind kind;
    private final int[] peers;
    private final List<Block> blocks;
    private final int step;

    private Instruction(Kind kind, int[] peers, List<Block> blocks, int step) {
        this.kind = kind;
        this.peers = peers;
        this.blocks = List.copyOf(Objects.requireNonNull(blocks, "blocks"));
        this.step = step;
        if (this.blocks.isEmpty()) {
            throw new IllegalArgumentException(kind + " with no blocks (expected: at least one)");
        }
    }

    public static Instruction send(int to, List<Block> blocks, int step) {
        return new Instruction(Kind.SEND, new int[] {to}, blocks, step);
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

    public Kind kind() {
        return kind;
    }

    public boolean isSend() {
        return kind == Kind.SEND;
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

    @Override
    public boolean equals(Object o) {
        return o instanceof Instruction other && kind == other.kind && step == other.step
                && Arrays.equals(peers, other.peers) && blocks.equals(other.blocks);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, Arrays.hashCode(peers), blocks, step);
    }

    /** E.g. {@code SEND whole -> 3 (step 2)}, {@code RECV_FIRST_OF [0,64) <- {1,4} (step 1)}. */
    @Override
    public String toString() {
        String blockText = blocks.size() == 1 ? blocks.get(0).toString() : blocks.toString();
        String peerText = peers.length == 1 ? Integer.toString(peers[0])
                : Arrays.toString(peers).replace('[', '{').replace(']', '}').replace(" ", "");
        return kind + " " + blockText + (kind == Kind.SEND ? " -> " : " <- ") + peerText + " (step " + step + ")";
    }
}
