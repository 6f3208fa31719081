package io.mpirunj.collectives.builders;

import static io.mpirunj.collectives.schedule.Block.Role.RECV;
import static io.mpirunj.collectives.schedule.Block.Role.SCRATCH;
import static io.mpirunj.collectives.schedule.Block.Role.SEND;

import io.mpirunj.Op;
import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.Collective;
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
            // A fresh scratch slot per step: its receive may be posted before the previous reduce ran.
            Block landing = Block.range(SCRATCH, (step + 1) * bytes, bytes);
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
        for (int r = 0; r < p; r++) {
            int v = Math.floorMod(r - root, p);
            int limit = v == 0 ? Integer.highestOneBit(Math.max(1, p - 1)) << 1 : Integer.lowestOneBit(v);
            boolean children = v + 1 < p && limit > 1;
            Block acc = v == 0 ? Block.range(RECV, 0, bytes) : children ? Block.range(SCRATCH, 0, bytes)
                    : Block.range(SEND, 0, bytes);
            if (v == 0 || children) {
                b.copy(r, 0, Block.range(SEND, 0, bytes), acc);
            }
            int slot = 1;
            for (int mask = 1; mask < limit && v + mask < p; mask <<= 1) {
                int child = (v + mask + root) % p;
                Block landing = Block.range(SCRATCH, slot++ * bytes, bytes);
                b.recv(r, child, Integer.numberOfTrailingZeros(mask) + 1, List.of(landing));
                b.reduce(r, Integer.numberOfTrailingZeros(mask) + 1, op, landing, acc);
            }
            if (v != 0) {
                int parent = ((v & (v - 1)) + root) % p;
                b.send(r, parent, Integer.numberOfTrailingZeros(v) + 1, List.of(acc));
            }
        }
        return b.build();
    }
}
