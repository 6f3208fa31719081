package io.mpirunj.collectives.builders;

import static io.mpirunj.collectives.schedule.Block.Role.RECV;
import static io.mpirunj.collectives.schedule.Block.Role.SCRATCH;
import static io.mpirunj.collectives.schedule.Block.Role.SEND;

import io.mpirunj.Op;
import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Instruction;
import io.mpirunj.collectives.schedule.Schedule;
import java.util.List;

/**
 * Reduce and allreduce schedules over {@link Block.Range} blocks: every rank contributes
 * {@code bytes} from its send buffer; the result lands in the receive buffer (of the root, or of
 * every rank). Partial results travel in scratch memory and are combined with REDUCE instructions
 * ({@code into = into (op) from}). The operator is part of the schedule.
 */
public final class ReductionBuilders {

    private ReductionBuilders() {
    }

    private static List<Block> range(Block.Role role, long offset, long bytes) {
        return List.of(Block.range(role, offset, bytes));
    }

    /**
     * Recursive doubling: with q the largest power of two &le; p and e = p - q, the 2e lowest ranks
     * fold pairwise (even 2i sends to 2i+1); the q remaining ranks exchange and combine whole buffers
     * with partners at distance 1, 2, 4, ... (in new-rank space); the odd folded ranks send the result
     * back. log2 q exchange steps (+2 when p is not a power of two). Both partners combine the same
     * two operands, so every rank ends with bit-identical results. Reference: Open MPI
     * {@code ompi_coll_base_allreduce_intra_recursivedoubling}; Thakur, Rabenseifner, Gropp, IJHPCA 2005.
     */
    public static Schedule recursiveDoublingAllreduce(int p, long bytes, Op op) {
        Schedule.Builder b = Schedule.builder(Collective.ALLREDUCE, "recursive-doubling", p, -1, bytes);
        Block result = Block.range(RECV, 0, bytes);
        for (int r = 0; r < p; r++) {
            b.copy(r, 0, Block.range(SEND, 0, bytes), result);
        }
        if (p == 1) {
            return b.build();
        }
        int q = Integer.highestOneBit(p);
        int extra = p - q;
        int steps = Integer.numberOfTrailingZeros(q);
        for (int r = 0; r < 2 * extra; r += 2) {
            b.send(r, r + 1, 0, List.of(result));
            b.recv(r + 1, r, 0, range(SCRATCH, 0, bytes));
            b.reduce(r + 1, 0, op, Block.range(SCRATCH, 0, bytes), result);
        }
        for (int step = 0; step < steps; step++) {
            int mask = 1 << step;
            // Two scratch slots, alternating: a step's receive is posted once the reduce two steps back
            // has read its slot, which is before the partner can send (it waits for our previous send).
            Block landing = Block.range(SCRATCH, ((step + 1) % 2) * bytes, bytes);
            for (int r = 0; r < p; r++) {
                int newRank = r < 2 * extra ? (r % 2 == 0 ? -1 : r / 2) : r - extra;
                if (newRank < 0) {
                    continue;
                }
                int newPartner = newRank ^ mask;
                int partner = newPartner < extra ? 2 * newPartner + 1 : newPartner + extra;
                b.recv(r, partner, step + 1, List.of(landing));
                b.send(r, partner, step + 1, List.of(result));
                b.reduce(r, step + 1, op, landing, result);
            }
        }
        for (int r = 0; r < 2 * extra; r += 2) {
            b.send(r + 1, r, steps + 1, List.of(result));
            b.recv(r, r + 1, steps + 1, List.of(result));
        }
        return b.build();
    }

    /**
     * Binomial-tree reduce to {@code root}: in virtual ranks v = (r - root) mod p, rank v combines the
     * partial results of its children v + 1, v + 2, v + 4, ... (below its lowest set bit) into its
     * accumulator, then sends it to its parent. log2 p steps. Reference: Open MPI
     * {@code ompi_coll_base_reduce_intra_binomial}.
     */
    public static Schedule binomialReduce(int p, int root, long bytes, Op op) {
        Schedule.Builder b = Schedule.builder(Collective.REDUCE, "binomial", p, root, bytes);
        appendBinomialReduce(b, p, root, bytes, op);
        return b.build();
    }

    /** Appends the binomial reduce into the root's receive buffer; returns the last step used. */
    private static int appendBinomialReduce(Schedule.Builder b, int p, int root, long bytes, Op op) {
        for (int r = 0; r < p; r++) {
            int v = BinomialTree.toVirtual(r, root, p);
            int limit = BinomialTree.childLimit(v, p);
            boolean children = v + 1 < p && limit > 1;
            Block acc = v == 0 ? Block.range(RECV, 0, bytes) : children ? Block.range(SCRATCH, 0, bytes)
                    : Block.range(SEND, 0, bytes);
            if (v == 0 || children) {
                b.copy(r, 0, Block.range(SEND, 0, bytes), acc);
            }
            int slot = 1;
            for (int mask = 1; mask < limit && v + mask < p; mask <<= 1) {
                int child = v + mask;
                Block landing = Block.range(SCRATCH, slot++ * bytes, bytes);
                b.recv(r, BinomialTree.toReal(child, root, p), BinomialTree.upStep(child), List.of(landing));
                b.reduce(r, BinomialTree.upStep(child), op, landing, acc);
            }
            if (v != 0) {
                b.send(r, BinomialTree.toReal(BinomialTree.parent(v), root, p), BinomialTree.upStep(v),
                        List.of(acc));
            }
        }
        return BinomialTree.upStep(BinomialTree.childLimit(0, p));
    }

    /**
     * Reduce + bcast all-reduce: the binomial reduce to rank 0, then a binomial bcast of the result
     * from rank 0 (largest subtree first), as one schedule. 2 ceil(log2 p) steps of the whole buffer.
     * Reference: SimGrid {@code allreduce-redbcast.cpp}; Open MPI
     * {@code ompi_coll_base_allreduce_intra_nonoverlapping}.
     */
    public static Schedule reduceBcastAllreduce(int p, long bytes, Op op) {
        Schedule.Builder b = Schedule.builder(Collective.ALLREDUCE, "reduce-bcast", p, -1, bytes);
        int after = appendBinomialReduce(b, p, 0, bytes, op);
        Block result = Block.range(RECV, 0, bytes);
        for (int v = 0; v < p; v++) {
            if (v != 0) {
                b.recv(v, BinomialTree.parent(v), after + BinomialTree.downStep(v & -v, p), List.of(result));
            }
            for (int mask = BinomialTree.childLimit(v, p) >> 1; mask > 0; mask >>= 1) {
                if (v + mask < p) {
                    b.send(v, v + mask, after + BinomialTree.downStep(mask, p), List.of(result));
                }
            }
        }
        return b.build();
    }

    /**
     * Flat reduce + flat bcast all-reduce: every rank sends its buffer to rank 0 at once; rank 0 combines
     * them into its result in rank order (each lands in its own scratch slot, so every receive is posted
     * up front), then sends the result to every rank. 2 steps; 2(p - 1) messages of the whole buffer,
     * as reduce-bcast, but only rank 0 forwards anything: no rank waits for a relay that shares the cores.
     * Every rank ends with rank 0's result, so all are bit-identical. Reference: MPICH's and Open MPI's
     * linear reduce ({@code ompi_coll_base_reduce_intra_basic_linear}) and linear bcast, composed as
     * {@code ompi_coll_base_allreduce_intra_nonoverlapping} composes its two halves.
     */
    public static Schedule linearReduceBcastAllreduce(int p, long bytes, Op op) {
        Schedule.Builder b = Schedule.builder(Collective.ALLREDUCE, "linear-reduce-bcast", p, -1, bytes);
        Block result = Block.range(RECV, 0, bytes);
        b.copy(0, 0, Block.range(SEND, 0, bytes), result);
        for (int r = 1; r < p; r++) {
            Block landing = Block.range(SCRATCH, (r - 1) * bytes, bytes);
            b.send(r, 0, 1, range(SEND, 0, bytes));
            b.recv(0, r, 1, List.of(landing));
            b.reduce(0, 1, op, landing, result);
        }
        for (int r = 1; r < p; r++) {
            b.send(0, r, 2, List.of(result));
            b.recv(r, 0, 2, List.of(result));
        }
        return b.build();
    }

    /** First element of block j when {@code count} elements are cut into {@code blocks} near-equal blocks. */
    private static long blockStart(long count, int blocks, int j) {
        return count * j / blocks;
    }

    /**
     * Rabenseifner's all-reduce: a recursive-halving reduce-scatter followed by a recursive-doubling
     * allgather. With q the largest power of two &le; p and e = p - q, the 2e lowest ranks first fold
     * pairwise as in {@link #recursiveDoublingAllreduce}; the q remaining ranks cut the vector into q
     * blocks; in step k each keeps half of its current window and sends the other half to its partner
     * at distance q/2, q/4, ..., 1, combining the partner's copy of the half it keeps, so new rank i
     * ends with block i fully reduced (log2 q steps, n(q-1)/q elements sent); then the windows double
     * back (log2 q steps, the same bytes) and the odd folded ranks send the result to their partners.
     * Every block is combined by one rank only, so all ranks end bit-identical. Needs at least q
     * elements; with fewer it falls back to recursive doubling (recorded in the note). Reference: R.
     * Rabenseifner, "Optimization of collective reduction operations", ICCS 2004; Thakur, Rabenseifner,
     * Gropp, IJHPCA 19(1), 2005; Open MPI {@code ompi_coll_base_allreduce_intra_redscat_allgather}.
     *
     * @param count       elements per rank
     * @param elementBytes bytes per element (blocks are cut at element boundaries)
     */
    public static Schedule rabenseifnerAllreduce(int p, long count, int elementBytes, Op op) {
        long bytes = count * elementBytes;
        int q = Integer.highestOneBit(p);
        if (p == 1 || count < q) {
            Schedule rd = recursiveDoublingAllreduce(p, bytes, op);
            Schedule.Builder b = Schedule.builder(Collective.ALLREDUCE, "rabenseifner", p, -1, bytes)
                    .note(p == 1 ? "" : "fallback: recursive-doubling (" + count + " elements < " + q + " blocks)");
            for (int r = 0; r < p; r++) {
                for (Instruction in : rd.program(r)) {
                    b.instruction(r, in);
                }
            }
            return b.build();
        }
        Schedule.Builder b = Schedule.builder(Collective.ALLREDUCE, "rabenseifner", p, -1, bytes);
        Block result = Block.range(RECV, 0, bytes);
        int extra = p - q;
        int steps = Integer.numberOfTrailingZeros(q);
        for (int r = 0; r < p; r++) {
            b.copy(r, 0, Block.range(SEND, 0, bytes), result);
        }
        for (int r = 0; r < 2 * extra; r += 2) {
            b.send(r, r + 1, 0, List.of(result));
            b.recv(r + 1, r, 0, range(SCRATCH, 0, bytes));
            b.reduce(r + 1, 0, op, Block.range(SCRATCH, 0, bytes), result);
        }
        for (int r = 0; r < p; r++) {
            int me = r < 2 * extra ? (r % 2 == 0 ? -1 : r / 2) : r - extra;
            if (me < 0) {
                continue;
            }
            int lo = 0;
            int hi = q;
            int step = 1;
            for (int d = q >> 1; d > 0; d >>= 1, step++) { // reduce-scatter: halve the window
                int mid = lo + d;
                boolean lower = (me & d) == 0;
                int keepLo = lower ? lo : mid;
                int sendLo = lower ? mid : lo;
                Block keep = window(RECV, count, q, keepLo, d, elementBytes);
                Block landing = window(SCRATCH, count, q, keepLo, d, elementBytes);
                int partner = real(me ^ d, extra);
                b.send(r, partner, step, List.of(window(RECV, count, q, sendLo, d, elementBytes)));
                b.recv(r, partner, step, List.of(landing));
                b.reduce(r, step, op, landing, keep);
                lo = keepLo;
                hi = keepLo + d;
            }
            for (int d = 1; d < q; d <<= 1, step++) { // allgather: double the window back
                int mine = me & ~(d - 1);
                int theirs = mine ^ d;
                int partner = real(me ^ d, extra);
                b.send(r, partner, step, List.of(window(RECV, count, q, mine, d, elementBytes)));
                b.recv(r, partner, step, List.of(window(RECV, count, q, theirs, d, elementBytes)));
            }
        }
        for (int r = 0; r < 2 * extra; r += 2) {
            b.send(r + 1, r, 2 * steps + 1, List.of(result));
            b.recv(r, r + 1, 2 * steps + 1, List.of(result));
        }
        return b.build();
    }

    /** Rank of new rank {@code newRank} after the fold of the 2 * extra lowest ranks. */
    private static int real(int newRank, int extra) {
        return newRank < extra ? 2 * newRank + 1 : newRank + extra;
    }

    /** Blocks [first, first + n) of {@code count} elements cut into {@code blocks}, as a byte range. */
    private static Block window(Block.Role role, long count, int blocks, int first, int n, int elementBytes) {
        long start = blockStart(count, blocks, first);
        long end = blockStart(count, blocks, first + n);
        return Block.range(role, start * elementBytes, (end - start) * elementBytes);
    }

    /**
     * Ring reduce-scatter: block j ({@code blockBytes[j]} bytes, laid end to end in the send buffer)
     * ends, reduced over all ranks, in rank j's receive buffer. In step s = 0 .. p-2 rank r sends its
     * partial of block (r - s - 1) mod p to r + 1 and receives the partial of block (r - s - 2) mod p
     * from r - 1, combining its own contribution into it; each step's partial lands in a scratch slot
     * of its own. p - 1 steps; every rank sends sum(blocks) - its block's bytes. Reference: Open MPI
     * {@code ompi_coll_base_reduce_scatter_intra_ring}; Patarasuk and Yuan, JPDC 69(2), 2009.
     */
    public static Schedule ringReduceScatter(int p, long[] blockBytes, Op op) {
        long total = 0;
        long widest = 1;
        long[] offset = new long[p + 1];
        for (int j = 0; j < p; j++) {
            offset[j] = total;
            total += blockBytes[j];
            widest = Math.max(widest, blockBytes[j]);
        }
        offset[p] = total;
        Schedule.Builder b = Schedule.builder(Collective.REDUCE_SCATTER, "ring", p, -1, total);
        for (int r = 0; r < p; r++) {
            if (p == 1) {
                b.copy(r, 0, Block.range(SEND, 0, total), Block.range(RECV, 0, total));
                continue;
            }
            Block partial = null;
            for (int s = 0; s < p - 1; s++) {
                int out = Math.floorMod(r - s - 1, p);
                int in = Math.floorMod(r - s - 2, p);
                // Slots at distinct offsets even for empty blocks, so no step's data aliases another's.
                Block landing = Block.range(SCRATCH, s * widest, blockBytes[in]);
                b.recv(r, (r - 1 + p) % p, s + 1, List.of(landing));
                b.send(r, (r + 1) % p, s + 1, List.of(s == 0 ? Block.range(SEND, offset[out], blockBytes[out])
                        : partial));
                b.reduce(r, s + 1, op, Block.range(SEND, offset[in], blockBytes[in]), landing);
                partial = landing;
            }
            b.copy(r, p, partial, Block.range(RECV, 0, blockBytes[r]));
        }
        return b.build();
    }

    /**
     * Linear scan (inclusive, or exclusive with {@code exclusive}): rank r receives the prefix
     * x0 op ... op x(r-1) from r - 1, combines its own x(r) on the right (MPI's rank order), and
     * passes the result to r + 1. p - 1 steps, one after another. For exscan, rank 0's receive buffer
     * is not written (MPI leaves it undefined) and rank r's result is the prefix it received.
     * Reference: MPICH {@code MPIR_Scan_intra_smp}'s chain; Open MPI {@code ompi_coll_base_scan_intra_linear}.
     */
    public static Schedule linearScan(int p, long bytes, Op op, boolean exclusive) {
        Collective c = exclusive ? Collective.EXSCAN : Collective.SCAN;
        Schedule.Builder b = Schedule.builder(c, "linear", p, -1, bytes);
        Block mine = Block.range(SEND, 0, bytes);
        Block result = Block.range(RECV, 0, bytes);
        for (int r = 0; r < p; r++) {
            Block out;
            if (r == 0) {
                if (!exclusive) {
                    b.copy(r, 0, mine, result);
                }
                out = exclusive ? mine : result;
            } else {
                b.recv(r, r - 1, r, List.of(result));
                if (exclusive) {
                    out = Block.range(SCRATCH, 0, bytes);
                    if (r + 1 < p) {
                        b.copy(r, r, result, out);
                        b.reduce(r, r, op, mine, out);
                    }
                } else {
                    b.reduce(r, r, op, mine, result);
                    out = result;
                }
            }
            if (r + 1 < p) {
                b.send(r, r + 1, r + 1, List.of(out));
            }
        }
        return b.build();
    }

    /**
     * Recursive-doubling scan (inclusive, or exclusive with {@code exclusive}): every rank keeps the
     * reduction of its current window ("partial") and its result; in step k it exchanges partials
     * with r xor 2^k (when that rank exists) and folds the partner's into its partial, and into its
     * result when the partner is lower. ceil(log2 p) steps. Reference: MPICH
     * {@code MPIR_Scan_intra_recursive_doubling}; Open MPI {@code ompi_coll_base_scan_intra_recursivedoubling}.
     */
    public static Schedule recursiveDoublingScan(int p, long bytes, Op op, boolean exclusive) {
        Collective c = exclusive ? Collective.EXSCAN : Collective.SCAN;
        Schedule.Builder b = Schedule.builder(c, "recursive-doubling", p, -1, bytes);
        long slotBytes = Math.max(1, bytes); // distinct slots even when empty
        Block result = Block.range(RECV, 0, bytes);
        Block partial = Block.range(SCRATCH, 0, bytes);
        for (int r = 0; r < p; r++) {
            b.copy(r, 0, Block.range(SEND, 0, bytes), partial);
            boolean haveResult = !exclusive;
            if (!exclusive) {
                b.copy(r, 0, Block.range(SEND, 0, bytes), result);
            }
            int step = 1;
            for (int d = 1; d < p; d <<= 1, step++) {
                int partner = r ^ d;
                if (partner >= p) {
                    continue;
                }
                Block landing = Block.range(SCRATCH, step * slotBytes, bytes);
                b.send(r, partner, step, List.of(partial));
                b.recv(r, partner, step, List.of(landing));
                if (partner < r) {
                    if (haveResult) {
                        b.reduce(r, step, op, landing, result);
                    } else {
                        b.copy(r, step, landing, result);
                        haveResult = true;
                    }
                }
                if ((d << 1) < p) { // a later step sends it
                    b.reduce(r, step, op, landing, partial);
                }
            }
        }
        return b.build();
    }
}
