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
import java.util.function.IntToLongFunction;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

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
                    run(ch, a, block, true);
                    run(ch, a, block, false);
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

    /**
     * One algorithm at one block size: longs under SUM, or ints under MAX. The expected values are computed
     * in long arithmetic for both (an int MAX is exact there).
     */
    private static void run(CollChannel ch, CollectiveAlgorithm a, int block, boolean longs) {
        int p = ch.size();
        int r = ch.rank();
        CollectiveOp op = a.op();
        int n = sendCount(op, p, block);
        int[] range = resultRange(op, p, r, block);
        long unset = longs ? -1 : Integer.MIN_VALUE + 1;
        Buffer send;
        Buffer recv;
        IntToLongFunction result;
        if (longs) {
            long[] out = new long[range[1]];
            Arrays.fill(out, unset);
            send = Buffer.of(LongStream.range(0, n).map(k -> longAt(r, (int) k)).toArray());
            recv = Buffer.of(out);
            result = i -> out[i];
        } else {
            int[] out = new int[range[1]];
            Arrays.fill(out, (int) unset);
            send = Buffer.of(IntStream.range(0, n).map(k -> intAt(r, k)).toArray());
            recv = Buffer.of(out);
            result = i -> out[i];
        }
        call(ch, a, send, recv, longs ? Op.SUM : Op.MAX, block);
        int last = lastContributor(op, p, r);
        for (int i = 0; i < range[1]; i++) {
            long expected = unset;
            for (int s = 0; s <= last; s++) {
                long v = longs ? longAt(s, range[0] + i) : intAt(s, range[0] + i);
                expected = s == 0 ? v : longs ? expected + v : Math.max(expected, v);
            }
            if (result.applyAsLong(i) != expected) {
                throw new IllegalStateException(a.op().cliName() + " " + a.name() + (longs ? " longs SUM" : " ints MAX")
                        + ", block " + block + ": rank " + r + " element " + i + " is " + result.applyAsLong(i)
                        + " (expected: " + expected + ")");
            }
        }
    }
}
