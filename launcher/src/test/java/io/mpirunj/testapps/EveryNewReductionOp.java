package io.mpirunj.testapps;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import io.mpirunj.Op;
import io.mpirunj.runtime.RankContext;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveOp;
import java.util.Arrays;

/**
 * Runs every registered algorithm of {@code reduceScatter}, {@code reduceScatterBlock}, {@code scan}
 * and {@code exscan} on this job's world (through the collective channel, as {@code Comm} does),
 * with longs under SUM and ints under MAX, 0 to 65,537 elements per block (per-rank counts of
 * reduceScatter vary and include zeros), checks every element of every rank against the reduction
 * computed here, and prints one line per algorithm that passed. Exits non-zero (via an exception) on
 * the first mismatch. Exscan leaves rank 0's receive buffer alone (MPI leaves it undefined): checked
 * unchanged.
 */
public final class EveryNewReductionOp {
    private static final int[] BLOCKS = {0, 1, 7, 1000, 65_537};
    private static final CollectiveOp[] OPS = {CollectiveOp.REDUCE_SCATTER, CollectiveOp.REDUCE_SCATTER_BLOCK,
        CollectiveOp.SCAN, CollectiveOp.EXSCAN};

    private EveryNewReductionOp() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        CollChannel ch = CollChannel.of(world);
        var registry = RankContext.current().registry();
        for (CollectiveOp op : OPS) {
            for (CollectiveAlgorithm a : registry.all(op)) {
                if (a instanceof CollectiveAlgorithm.Parameterized) {
                    continue;
                }
                for (int block : BLOCKS) {
                    runLongs(ch, a, block);
                    runInts(ch, a, block);
                }
                world.barrier();
                if (world.rank() == 0) {
                    System.out.println("passed " + op.cliName() + " " + a.name());
                }
            }
        }
        Mpi.finish();
    }

    /** Element k of rank s's send buffer (longs, SUM): no two (s, k) alike, sums never overflow. */
    private static long longAt(int s, int k) {
        return (long) s * 1_000_003L + k * 7L + 1;
    }

    /** Element k of rank s's send buffer (ints, MAX): the maximum moves between ranks along k. */
    private static int intAt(int s, int k) {
        return (s * 7919 + k * 104_729) % 10_007 - 5000;
    }

    private static int[] counts(int p, int block) {
        int[] c = new int[p];
        for (int j = 0; j < p; j++) {
            c[j] = j % 3 == 1 ? 0 : block + j;
        }
        return c;
    }

    private static int sendCount(CollectiveOp op, int p, int block) {
        switch (op) {
            case REDUCE_SCATTER: return Arrays.stream(counts(p, block)).sum();
            case REDUCE_SCATTER_BLOCK: return p * block;
            default: return block;
        }
    }

    /** Where rank r's result starts in the send buffers, and how many elements it has. */
    private static int[] resultRange(CollectiveOp op, int p, int r, int block) {
        switch (op) {
            case REDUCE_SCATTER: {
                int[] c = counts(p, block);
                int at = 0;
                for (int j = 0; j < r; j++) {
                    at += c[j];
                }
                return new int[] {at, c[r]};
            }
            case REDUCE_SCATTER_BLOCK: return new int[] {r * block, block};
            default: return new int[] {0, block};
        }
    }

    /** Ranks whose send buffers the result of rank r combines: all, 0..r or 0..r-1. */
    private static int lastContributor(CollectiveOp op, int p, int r) {
        switch (op) {
            case SCAN: return r;
            case EXSCAN: return r - 1;
            default: return p - 1;
        }
    }

    private static void call(CollChannel ch, CollectiveAlgorithm a, Buffer send, Buffer recv, Op op, int block) {
        // by op(), not by interface: one class serves both scan and exscan
        switch (a.op()) {
            case REDUCE_SCATTER ->
                ((CollectiveAlgorithm.ReduceScatter) a).reduceScatter(ch, send, recv, counts(ch.size(), block), op, true);
            case REDUCE_SCATTER_BLOCK -> ((CollectiveAlgorithm.ReduceScatterBlock) a).reduceScatterBlock(ch, send, recv,
                    op, true);
            case SCAN -> ((CollectiveAlgorithm.Scan) a).scan(ch, send, recv, op, true);
            case EXSCAN -> ((CollectiveAlgorithm.Exscan) a).exscan(ch, send, recv, op, true);
            default -> throw new IllegalArgumentException("not a new reduction op: " + a.op());
        }
    }

    private static void runLongs(CollChannel ch, CollectiveAlgorithm a, int block) {
        int p = ch.size();
        int r = ch.rank();
        CollectiveOp op = a.op();
        long[] send = new long[sendCount(op, p, block)];
        for (int k = 0; k < send.length; k++) {
            send[k] = longAt(r, k);
        }
        int[] range = resultRange(op, p, r, block);
        long[] recv = new long[range[1]];
        Arrays.fill(recv, -1);
        call(ch, a, Buffer.of(send), Buffer.of(recv), Op.SUM, block);
        int last = lastContributor(op, p, r);
        for (int i = 0; i < recv.length; i++) {
            long expected = -1;
            if (last >= 0) {
                expected = 0;
                for (int s = 0; s <= last; s++) {
                    expected += longAt(s, range[0] + i);
                }
            }
            if (recv[i] != expected) {
                throw new IllegalStateException(a.op().cliName() + " " + a.name() + " longs SUM, block " + block
                        + ": rank " + r + " element " + i + " is " + recv[i] + " (expected: " + expected + ")");
            }
        }
    }

    private static void runInts(CollChannel ch, CollectiveAlgorithm a, int block) {
        int p = ch.size();
        int r = ch.rank();
        CollectiveOp op = a.op();
        int[] send = new int[sendCount(op, p, block)];
        for (int k = 0; k < send.length; k++) {
            send[k] = intAt(r, k);
        }
        int[] range = resultRange(op, p, r, block);
        int[] recv = new int[range[1]];
        Arrays.fill(recv, Integer.MIN_VALUE + 1);
        call(ch, a, Buffer.of(send), Buffer.of(recv), Op.MAX, block);
        int last = lastContributor(op, p, r);
        for (int i = 0; i < recv.length; i++) {
            int expected = Integer.MIN_VALUE + 1;
            if (last >= 0) {
                expected = Integer.MIN_VALUE;
                for (int s = 0; s <= last; s++) {
                    expected = Math.max(expected, intAt(s, range[0] + i));
                }
            }
            if (recv[i] != expected) {
                throw new IllegalStateException(a.op().cliName() + " " + a.name() + " ints MAX, block " + block
                        + ": rank " + r + " element " + i + " is " + recv[i] + " (expected: " + expected + ")");
            }
        }
    }
}
