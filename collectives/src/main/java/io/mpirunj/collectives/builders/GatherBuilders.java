package io.mpirunj.collectives.builders;

import static io.mpirunj.collectives.schedule.Block.Role.RECV;
import static io.mpirunj.collectives.schedule.Block.Role.SCRATCH;
import static io.mpirunj.collectives.schedule.Block.Role.SEND;

import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import java.util.List;

/**
 * Gather, scatter and allgather schedules over {@link Block.Range} blocks: each rank contributes (or
 * receives) {@code bytes}; block i of the root's (every rank's, for allgather) receive buffer, or of
 * the root's send buffer for scatter, is {@code [i * bytes, (i + 1) * bytes)}.
 *
 * <p>The "v" collectives (gatherv, scatterv, allgatherv) run the linear and ring schedules built
 * with {@code bytes = 1}: range {@code [i, i + 1)} then names block i, which the runner places by the
 * call's counts and displacements ({@link io.mpirunj.collectives.runner.ScheduleBuffers}), so one
 * schedule serves every call whatever its counts.
 */
public final class GatherBuilders {

    private GatherBuilders() {
    }

    private static List<Block> range(Block.Role role, long offset, long bytes) {
        return List.of(Block.range(role, offset, bytes));
    }

    /** Linear gather: the root posts a receive per rank into its block and copies its own. */
    public static Schedule linearGather(int p, int root, long bytes) {
        return linear(Collective.GATHER, p, root, bytes);
    }

    /** Linear scatter: the root sends block i to rank i and copies its own. */
    public static Schedule linearScatter(int p, int root, long bytes) {
        return linear(Collective.SCATTER, p, root, bytes);
    }

    /**
     * The linear gather and scatter, mirror images: block i of the root's blocked buffer (its receive
     * buffer for a gather, its send buffer for a scatter) travels between the root and rank i, in one
     * message, as the other side's whole send (gather) or receive (scatter) buffer.
     */
    private static Schedule linear(Collective op, int p, int root, long bytes) {
        boolean gather = op == Collective.GATHER;
        Schedule.Builder b = Schedule.builder(op, "linear", p, root, bytes);
        b.copy(root, 0, Block.range(SEND, gather ? 0 : root * bytes, bytes),
                Block.range(RECV, gather ? root * bytes : 0, bytes));
        for (int r = 0; r < p; r++) {
            if (r != root) {
                int from = gather ? r : root;
                int to = gather ? root : r;
                b.send(from, to, 1, range(SEND, gather ? 0 : r * bytes, bytes));
                b.recv(to, from, 1, range(RECV, gather ? r * bytes : 0, bytes));
            }
        }
        return b.build();
    }

    /**
     * The root's rotation between rank order (in {@code rankOrder}) and virtual order (in scratch,
     * virtual block i being rank (i + root) mod p's), as two runs: {rank-order range, scratch range}
     * for ranks [root, p), then for ranks [0, root).
     */
    private static Block.Range[][] rotation(Block.Role rankOrder, int p, int root, long bytes) {
        long head = (p - root) * bytes;
        return new Block.Range[][] {
            {Block.range(rankOrder, root * bytes, head), Block.range(SCRATCH, 0, head)},
            {Block.range(rankOrder, 0, root * bytes), Block.range(SCRATCH, head, root * bytes)}};
    }

    /**
     * Binomial gather: with virtual ranks v = (r - root) mod p, rank v collects the blocks of its
     * subtree [v, v + size) contiguously (its own first, each child's whole subtree in one message)
     * and sends them to its parent v - lowbit(v). The root gathers straight into its receive buffer
     * when it is rank 0, else into scratch, then rotates the blocks into rank order with two COPYs.
     * ceil(log2 p) steps; the root receives (p - 1) blocks in ceil(log2 p) messages. Reference: Open
     * MPI {@code ompi_coll_base_gather_intra_binomial}; MPICH {@code MPIR_Gather_intra_binomial}.
     */
    public static Schedule binomialGather(int p, int root, long bytes) {
        Schedule.Builder b = Schedule.builder(Collective.GATHER, "binomial", p, root, bytes);
        for (int r = 0; r < p; r++) {
            int v = BinomialTree.toVirtual(r, root, p);
            int size = BinomialTree.subtreeSize(v, p);
            if (size == 1) { // a leaf, or the root of one rank
                if (v == 0) {
                    b.copy(r, 0, Block.range(SEND, 0, bytes), Block.range(RECV, 0, bytes));
                } else {
                    b.send(r, BinomialTree.toReal(BinomialTree.parent(v), root, p), BinomialTree.upStep(v),
                            range(SEND, 0, bytes));
                }
                continue;
            }
            Block.Role acc = v == 0 && root == 0 ? RECV : SCRATCH;
            b.copy(r, 0, Block.range(SEND, 0, bytes), Block.range(acc, 0, bytes));
            int limit = BinomialTree.childLimit(v, p);
            for (int mask = 1; mask < limit && v + mask < p; mask <<= 1) {
                int child = v + mask;
                b.recv(r, BinomialTree.toReal(child, root, p), BinomialTree.upStep(child),
                        range(acc, mask * bytes, BinomialTree.subtreeSize(child, p) * bytes));
            }
            if (v != 0) {
                b.send(r, BinomialTree.toReal(BinomialTree.parent(v), root, p), BinomialTree.upStep(v),
                        range(acc, 0, size * bytes));
            } else if (root != 0) { // virtual block i belongs to rank (i + root) mod p
                int last = BinomialTree.upStep(BinomialTree.childLimit(0, p) >> 1) + 1;
                for (Block.Range[] run : rotation(RECV, p, root, bytes)) {
                    b.copy(r, last, run[1], run[0]);
                }
            }
        }
        return b.build();
    }

    /**
     * Binomial scatter, the mirror of {@link #binomialGather}: rank v receives its whole subtree's
     * blocks from its parent in one message, forwards each child's subtree (largest first) and keeps
     * block 0. The root sends straight from its send buffer when it is rank 0, else first rotates it
     * into virtual order in scratch. ceil(log2 p) steps. Reference: Open MPI
     * {@code ompi_coll_base_scatter_intra_binomial}; MPICH {@code MPIR_Scatter_intra_binomial}.
     */
    public static Schedule binomialScatter(int p, int root, long bytes) {
        Schedule.Builder b = Schedule.builder(Collective.SCATTER, "binomial", p, root, bytes);
        for (int r = 0; r < p; r++) {
            int v = BinomialTree.toVirtual(r, root, p);
            int size = BinomialTree.subtreeSize(v, p);
            Block.Role held = v == 0 && root == 0 ? SEND : SCRATCH;
            if (v == 0 && root != 0) {
                for (Block.Range[] run : rotation(SEND, p, root, bytes)) {
                    b.copy(r, 0, run[0], run[1]);
                }
            } else if (v != 0) {
                int from = BinomialTree.toReal(BinomialTree.parent(v), root, p);
                int mask = v & -v;
                if (size == 1) {
                    b.recv(r, from, BinomialTree.downStep(mask, p), range(RECV, 0, bytes));
                    continue;
                }
                b.recv(r, from, BinomialTree.downStep(mask, p), range(SCRATCH, 0, size * bytes));
            }
            int limit = BinomialTree.childLimit(v, p);
            for (int mask = limit >> 1; mask > 0; mask >>= 1) {
                int child = v + mask;
                if (child < p) {
                    b.send(r, BinomialTree.toReal(child, root, p), BinomialTree.downStep(mask, p),
                            range(held, mask * bytes, BinomialTree.subtreeSize(child, p) * bytes));
                }
            }
            b.copy(r, BinomialTree.downStep(1, p) + 1, Block.range(held, 0, bytes), Block.range(RECV, 0, bytes));
        }
        return b.build();
    }

    /**
     * Ring allgather: p-1 steps; in step s rank r sends block (r - s) mod p to r+1 and receives
     * block (r - s - 1) mod p from r-1, forwarding next step what it just received. Reference: Open
     * MPI {@code ompi_coll_base_allgather_intra_ring}.
     */
    public static Schedule ringAllgather(int p, long bytes) {
        Schedule.Builder b = Schedule.builder(Collective.ALLGATHER, "ring", p, -1, bytes);
        for (int r = 0; r < p; r++) {
            b.copy(r, 0, Block.range(SEND, 0, bytes), Block.range(RECV, r * bytes, bytes));
        }
        for (int s = 0; s < p - 1; s++) {
            for (int r = 0; r < p; r++) {
                int out = Math.floorMod(r - s, p);
                int in = Math.floorMod(r - s - 1, p);
                if (bytes == 0) {
                    // Empty blocks would all be the same bytes: forward distinct empty tokens instead.
                    b.recv(r, (r - 1 + p) % p, s + 1, range(SCRATCH, s, 0));
                    b.send(r, (r + 1) % p, s + 1, s == 0 ? range(SEND, 0, 0) : range(SCRATCH, s - 1, 0));
                    continue;
                }
                b.recv(r, (r - 1 + p) % p, s + 1, range(RECV, in * bytes, bytes));
                b.send(r, (r + 1) % p, s + 1, range(RECV, out * bytes, bytes));
            }
        }
        return b.build();
    }
}
