package mpi;

import io.mpirunj.Buffer;
import io.mpirunj.runtime.spi.CollChannel;

/**
 * This package's own reductions, for what the runtime's pluggable reduce and allreduce do not cover
 * (MINLOC/MAXLOC, user functions, char and short data, complex products) and for the scans, which the
 * runtime's Comm does not have yet. They run on the communicator's private collective channel, so
 * they never mix with the user's point-to-point traffic. Data travel as little-endian byte images.
 */
final class Reduce {
    /** Tags on the collective channel; each collective finishes all its messages before the next starts. */
    private static final int TAG_TREE = 0x6d70_6901;
    private static final int TAG_TO_ROOT = 0x6d70_6902;
    private static final int TAG_SCAN = 0x6d70_6903;

    private Reduce() {
    }

    /**
     * Binomial-tree reduction of every rank's {@code mine} in rank order ({@code r0 op r1 op ...}, so a
     * non-commutative op is right); the result on {@code root}, null elsewhere.
     */
    static byte[] tree(io.mpirunj.Comm comm, byte[] mine, Op op, Datatype type, int count, boolean nio, int root) {
        CollChannel ch = CollChannel.of(comm);
        int size = ch.size();
        int rank = ch.rank();
        byte[] acc = mine.clone(); // the reduction of ranks [rank, rank + mask)
        byte[] in = new byte[acc.length];
        for (int mask = 1; mask < size; mask <<= 1) {
            if ((rank & mask) != 0) {
                ch.send(Buffer.of(acc), rank - mask, TAG_TREE);
                acc = null;
                break;
            }
            if (rank + mask < size) {
                ch.recv(Buffer.of(in), rank + mask, TAG_TREE);
                Combiner.combine(op, type, acc, in, count, nio); // in = acc op in: lower ranks first
                byte[] t = acc;
                acc = in;
                in = t;
            }
        }
        if (root == 0) {
            return rank == 0 ? acc : null;
        }
        if (rank == 0) {
            ch.send(Buffer.of(acc), root, TAG_TO_ROOT);
            return null;
        }
        if (rank == root) {
            byte[] out = new byte[mine.length];
            ch.recv(Buffer.of(out), 0, TAG_TO_ROOT);
            return out;
        }
        return null;
    }

    /** {@link #tree} to rank 0, then the runtime's (pluggable) bcast of the result. */
    static byte[] all(io.mpirunj.Comm comm, byte[] mine, Op op, Datatype type, int count, boolean nio) {
        byte[] result = tree(comm, mine, op, type, count, nio, 0);
        if (result == null) {
            result = new byte[mine.length];
        }
        comm.bcast(Buffer.of(result), 0);
        return result;
    }

    /**
     * Prefix reduction along the chain of ranks: rank r gets {@code r0 op ... op r} (inclusive), or
     * {@code r0 op ... op r-1} (exclusive; null on rank 0, whose result MPI leaves undefined).
     * Linear in the number of ranks: simple and order-preserving.
     */
    static byte[] scan(io.mpirunj.Comm comm, byte[] mine, Op op, Datatype type, int count, boolean nio,
            boolean exclusive) {
        CollChannel ch = CollChannel.of(comm);
        int size = ch.size();
        int rank = ch.rank();
        byte[] prefix = null; // r0 op ... op r-1
        if (rank > 0) {
            prefix = new byte[mine.length];
            ch.recv(Buffer.of(prefix), rank - 1, TAG_SCAN);
        }
        byte[] inclusive = mine.clone();
        if (prefix != null) {
            Combiner.combine(op, type, prefix, inclusive, count, nio);
        }
        if (rank + 1 < size) {
            ch.send(Buffer.of(inclusive), rank + 1, TAG_SCAN);
        }
        return exclusive ? prefix : inclusive;
    }
}
