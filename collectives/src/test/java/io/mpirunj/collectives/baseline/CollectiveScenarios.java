package io.mpirunj.collectives.baseline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.ElementType;
import io.mpirunj.Op;
import io.mpirunj.runtime.spi.CollectiveOp;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * SPMD bodies that run one collective operation many times on a communicator (every buffer kind x
 * count x root, and every operator for reductions) and check each result against a reference
 * computed locally. They call only the public {@link Comm} API, so they test whichever algorithm the
 * registry has chosen (the test forces one) and can be reused for any algorithm family.
 */
public final class CollectiveScenarios {
    /** Marks elements a collective must not write. */
    static final long SENTINEL = -7777;
    /** Elements in the largest case: above the default eager limit for every kind, so it takes the rendezvous path. */
    static final int LARGE = 17_000;

    /** How a test buffer is backed. */
    enum Kind {
        INT_ARRAY(ElementType.INT), DOUBLE_ARRAY(ElementType.DOUBLE), LONG_DIRECT(ElementType.LONG);

        final ElementType type;

        Kind(ElementType type) {
            this.type = type;
        }
    }

    /** Shared by the ranks (threads) of one cluster run: for the barrier test. */
    private static final ConcurrentHashMap<String, AtomicInteger> ARRIVALS = new ConcurrentHashMap<>();

    private CollectiveScenarios() {
    }

    static void run(CollectiveOp op, Comm world, String runId) {
        switch (op) {
            case BARRIER: barrier(world, runId); break;
            case BCAST: bcast(world); break;
            case MULTICAST: multicast(world); break;
            case ALLTOALL: alltoall(world); break;
            case ALLTOALLV: alltoallv(world); break;
            case GATHER: gather(world); break;
            case GATHERV: gatherv(world); break;
            case SCATTER: scatter(world); break;
            case SCATTERV: scatterv(world); break;
            case ALLGATHER: allgather(world); break;
            case ALLGATHERV: allgatherv(world); break;
            case REDUCE: reduce(world); break;
            case ALLREDUCE: allreduce(world); break;
            case REDUCE_SCATTER: reduceScatter(world, false); break;
            case REDUCE_SCATTER_BLOCK: reduceScatter(world, true); break;
            case SCAN: scan(world, false); break;
            case EXSCAN: scan(world, true); break;
            default: throw new AssertionError("no scenario for " + op);
        }
    }

    /**
     * When set (by a test, around one cluster run), every scenario runs one large case instead of the
     * full plan: int buffers of 4 MiB (per rank, or per all-to-all send buffer), operator SUM.
     */
    static volatile boolean fourMib;

    private static final int FOUR_MIB_INTS = (4 << 20) / 4;

    static List<Kind> kinds() {
        return fourMib ? List.of(Kind.INT_ARRAY) : List.of(Kind.values());
    }

    /** {0, 1, fewer than p, not divisible by p, 1000, LARGE}. */
    static List<Integer> counts(int p) {
        if (fourMib) {
            return List.of(FOUR_MIB_INTS);
        }
        Set<Integer> s = new LinkedHashSet<>(List.of(0, 1, Math.max(1, p - 1), 2 * p + 1, 1000, LARGE));
        return new ArrayList<>(s);
    }

    /** {0, p - 1, p / 2}. */
    static List<Integer> roots(int p) {
        return new ArrayList<>(new LinkedHashSet<>(List.of(0, p - 1, p / 2)));
    }

    // ---- scenarios ------------------------------------------------------------------------------

    static void barrier(Comm c, String runId) {
        int p = c.size();
        AtomicInteger arrived = ARRIVALS.computeIfAbsent(runId, k -> new AtomicInteger());
        for (int round = 0; round < 20; round++) {
            arrived.incrementAndGet();
            c.barrier();
            int seen = arrived.get();
            assertTrue(seen >= p * (round + 1), "rank " + c.rank() + " left barrier round " + round + " after only "
                    + seen + " of " + p * (round + 1) + " arrivals");
        }
        c.barrier();
        ARRIVALS.remove(runId);
    }

    static void bcast(Comm c) {
        int p = c.size();
        int r = c.rank();
        for (Kind k : kinds()) {
            for (int n : counts(p)) {
                for (int root : roots(p)) {
                    long[] expected = fill(n, i -> unique(root, i));
                    Buffer buf = create(k, r == root ? expected : sentinels(n));
                    c.bcast(buf, root);
                    check(expected, buf, "bcast", k, n, root, r);
                }
            }
        }
    }

    static void multicast(Comm c) {
        int p = c.size();
        int r = c.rank();
        for (Kind k : kinds()) {
            for (int n : counts(p)) {
                for (int root : roots(p)) {
                    for (int[] group : groups(p, root)) {
                        boolean member = r == root;
                        for (int g : group) {
                            member |= g == r;
                        }
                        if (!member) {
                            continue;
                        }
                        long[] expected = fill(n, i -> unique(root, i));
                        Buffer buf = create(k, r == root ? expected : sentinels(n));
                        c.multicast(buf, root, group);
                        check(expected, buf, "multicast to " + java.util.Arrays.toString(group), k, n, root, r);
                    }
                }
            }
        }
    }

    /** Everyone else; everyone including the root; every other rank in reverse order; nobody. */
    private static List<int[]> groups(int p, int root) {
        List<int[]> out = new ArrayList<>();
        out.add(java.util.stream.IntStream.range(0, p).filter(x -> x != root).toArray());
        out.add(java.util.stream.IntStream.range(0, p).toArray());
        out.add(java.util.stream.IntStream.range(0, p).map(x -> p - 1 - x).filter(x -> x % 2 == 1).toArray());
        out.add(new int[0]);
        return out;
    }

    static void alltoall(Comm c) {
        int p = c.size();
        int r = c.rank();
        for (Kind k : kinds()) {
            for (int b : blockSizes(p)) {
                long[][] blocks = alltoallBlocks(p, r, b);
                Buffer recv = create(k, sentinels(p * b));
                c.alltoall(create(k, blocks[0]), recv);
                check(blocks[1], recv, "alltoall block=" + b, k, p * b, -1, r);
            }
        }
    }

    static void alltoallv(Comm c) {
        int p = c.size();
        int r = c.rank();
        for (Kind k : kinds()) {
            for (int n : counts(p)) {
                int[] sendCounts = new int[p];
                int[] recvCounts = new int[p];
                for (int j = 0; j < p; j++) {
                    sendCounts[j] = vcount(n, r, j);
                    recvCounts[j] = vcount(n, j, r);
                }
                int[] sendDispls = gappedDispls(sendCounts, false);
                int[] recvDispls = gappedDispls(recvCounts, true);
                long[] send = sentinels(extent(sendCounts, sendDispls));
                long[] expected = sentinels(extent(recvCounts, recvDispls));
                for (int j = 0; j < p; j++) {
                    for (int i = 0; i < sendCounts[j]; i++) {
                        send[sendDispls[j] + i] = pair(r, j, i);
                    }
                    for (int i = 0; i < recvCounts[j]; i++) {
                        expected[recvDispls[j] + i] = pair(j, r, i);
                    }
                }
                Buffer recv = create(k, sentinels(expected.length));
                c.alltoallv(create(k, send), sendCounts, sendDispls, recv, recvCounts, recvDispls);
                check(expected, recv, "alltoallv", k, n, -1, r);
            }
        }
    }

    static void gather(Comm c) {
        int p = c.size();
        int r = c.rank();
        for (Kind k : kinds()) {
            for (int n : counts(p)) {
                for (int root : roots(p)) {
                    long[] expected = new long[p * n];
                    for (int j = 0; j < p; j++) {
                        for (int i = 0; i < n; i++) {
                            expected[j * n + i] = unique(j, i);
                        }
                    }
                    Buffer recv = create(k, sentinels(r == root ? p * n : 3));
                    c.gather(create(k, fill(n, i -> unique(r, i))), recv, root);
                    check(r == root ? expected : sentinels(3), recv, "gather", k, n, root, r);
                }
            }
        }
    }

    static void gatherv(Comm c) {
        int p = c.size();
        int r = c.rank();
        for (Kind k : kinds()) {
            for (int n : counts(p)) {
                for (int root : roots(p)) {
                    int[] counts = new int[p];
                    for (int j = 0; j < p; j++) {
                        counts[j] = vcount(n, j, root);
                    }
                    int[] displs = gappedDispls(counts, true);
                    long[] expected = sentinels(extent(counts, displs));
                    for (int j = 0; j < p; j++) {
                        for (int i = 0; i < counts[j]; i++) {
                            expected[displs[j] + i] = unique(j, i);
                        }
                    }
                    Buffer recv = create(k, sentinels(r == root ? expected.length : 3));
                    c.gatherv(create(k, fill(counts[r], i -> unique(r, i))), recv, r == root ? counts : null,
                            r == root ? displs : null, root);
                    check(r == root ? expected : sentinels(3), recv, "gatherv", k, n, root, r);
                }
            }
        }
    }

    static void scatter(Comm c) {
        int p = c.size();
        int r = c.rank();
        for (Kind k : kinds()) {
            for (int n : counts(p)) {
                for (int root : roots(p)) {
                    long[] send = new long[p * n];
                    for (int j = 0; j < p; j++) {
                        for (int i = 0; i < n; i++) {
                            send[j * n + i] = unique(j, i);
                        }
                    }
                    Buffer recv = create(k, sentinels(n));
                    c.scatter(r == root ? create(k, send) : create(k, sentinels(2)), recv, root);
                    check(fill(n, i -> unique(r, i)), recv, "scatter", k, n, root, r);
                }
            }
        }
    }

    static void scatterv(Comm c) {
        int p = c.size();
        int r = c.rank();
        for (Kind k : kinds()) {
            for (int n : counts(p)) {
                for (int root : roots(p)) {
                    int[] counts = new int[p];
                    for (int j = 0; j < p; j++) {
                        counts[j] = vcount(n, root, j);
                    }
                    int[] displs = gappedDispls(counts, true);
                    long[] send = sentinels(extent(counts, displs));
                    for (int j = 0; j < p; j++) {
                        for (int i = 0; i < counts[j]; i++) {
                            send[displs[j] + i] = unique(j, i);
                        }
                    }
                    // One element more than needed: receiving a shorter message is legal and leaves the rest alone.
                    Buffer recv = create(k, sentinels(counts[r] + 1));
                    long[] expected = sentinels(counts[r] + 1);
                    for (int i = 0; i < counts[r]; i++) {
                        expected[i] = unique(r, i);
                    }
                    c.scatterv(r == root ? create(k, send) : null, r == root ? counts : null, r == root ? displs : null,
                            recv, root);
                    check(expected, recv, "scatterv", k, n, root, r);
                }
            }
        }
    }

    static void allgather(Comm c) {
        int p = c.size();
        int r = c.rank();
        for (Kind k : kinds()) {
            for (int n : counts(p)) {
                long[] expected = new long[p * n];
                for (int j = 0; j < p; j++) {
                    for (int i = 0; i < n; i++) {
                        expected[j * n + i] = unique(j, i);
                    }
                }
                Buffer recv = create(k, sentinels(p * n));
                c.allgather(create(k, fill(n, i -> unique(r, i))), recv);
                check(expected, recv, "allgather", k, n, -1, r);
            }
        }
    }

    static void allgatherv(Comm c) {
        int p = c.size();
        int r = c.rank();
        for (Kind k : kinds()) {
            for (int n : counts(p)) {
                int[] counts = new int[p];
                for (int j = 0; j < p; j++) {
                    counts[j] = vcount(n, j, 0);
                }
                int[] displs = gappedDispls(counts, true);
                long[] expected = sentinels(extent(counts, displs));
                for (int j = 0; j < p; j++) {
                    for (int i = 0; i < counts[j]; i++) {
                        expected[displs[j] + i] = unique(j, i);
                    }
                }
                Buffer recv = create(k, sentinels(expected.length));
                c.allgatherv(create(k, fill(counts[r], i -> unique(r, i))), recv, counts, displs);
                check(expected, recv, "allgatherv", k, n, -1, r);
            }
        }
    }

    static void reduce(Comm c) {
        int p = c.size();
        int r = c.rank();
        eachReduction(c, roots(p), n -> n, (k, op, n, root, send) -> {
            Buffer recv = create(k, sentinels(r == root ? n : 2));
            c.reduce(send, recv, op, root);
            return new Received("reduce " + op, recv, r == root ? reference(k, op, p, n) : sentinels(2));
        });
    }

    static void allreduce(Comm c) {
        int p = c.size();
        eachReduction(c, UNROOTED, n -> n, (k, op, n, root, send) -> {
            Buffer recv = create(k, sentinels(n));
            c.allreduce(send, recv, op);
            return new Received("allreduce " + op, recv, reference(k, op, p, n));
        });
    }

    /**
     * Reduce-scatter: with per-rank counts ({@code vcount}, zeros included) or equal blocks of n; block
     * j of the reduction of every rank's {@code small(r, i)} must land on rank j.
     */
    static void reduceScatter(Comm c, boolean equalBlocks) {
        int p = c.size();
        int r = c.rank();
        java.util.function.IntFunction<int[]> blocks = n -> {
            int[] counts = new int[p];
            for (int j = 0; j < p; j++) {
                counts[j] = equalBlocks ? n : vcount(n, j, 1);
            }
            return counts;
        };
        eachReduction(c, UNROOTED, n -> java.util.Arrays.stream(blocks.apply(n)).sum(), (k, op, n, root, send) -> {
            int[] counts = blocks.apply(n);
            int mine = java.util.Arrays.stream(counts, 0, r).sum();
            Buffer recv = create(k, sentinels(counts[r]));
            if (equalBlocks) {
                c.reduceScatterBlock(send, recv, op);
            } else {
                c.reduceScatter(send, recv, counts, op);
            }
            long[] all = reference(k, op, p, java.util.Arrays.stream(counts).sum());
            return new Received((equalBlocks ? "reduceScatterBlock " : "reduceScatter ") + op, recv,
                    java.util.Arrays.copyOfRange(all, mine, mine + counts[r]));
        });
    }

    /** Scan and exscan: rank r gets the reduction over ranks 0..r (0..r-1); exscan leaves rank 0's recv alone. */
    static void scan(Comm c, boolean exclusive) {
        int r = c.rank();
        eachReduction(c, UNROOTED, n -> n, (k, op, n, root, send) -> {
            Buffer recv = create(k, sentinels(n));
            if (exclusive) {
                c.exscan(send, recv, op);
            } else {
                c.scan(send, recv, op);
            }
            int upTo = exclusive ? r : r + 1;
            return new Received((exclusive ? "exscan " : "scan ") + op, recv,
                    upTo == 0 ? sentinels(n) : reference(k, op, upTo, n));
        });
    }

    /** The root list of an unrooted reduction: one pass, reported as root -1. */
    private static final List<Integer> UNROOTED = List.of(-1);

    /** A reduction's name and receive buffer, and what the buffer must hold. */
    private record Received(String what, Buffer recv, long[] expected) {
    }

    /** One reduction call on {@code send}; root is -1 for an unrooted one. */
    @FunctionalInterface
    private interface ReductionCall {
        Received run(Kind k, Op op, int n, int root, Buffer send);
    }

    /**
     * The loop every reduction scenario shares: for every kind, its ops, every count n and every root, rank
     * r's send holds {@code small(r, i)} for {@code sendCount(n)} elements; {@code call} runs the collective;
     * then its receive buffer is checked, and the send buffer must not have changed.
     */
    private static void eachReduction(Comm c, List<Integer> roots, java.util.function.IntUnaryOperator sendCount,
            ReductionCall call) {
        int r = c.rank();
        for (Kind k : kinds()) {
            for (Op op : ops(k)) {
                for (int n : counts(c.size())) {
                    for (int root : roots) {
                        long[] sent = fill(sendCount.applyAsInt(n), i -> small(r, i));
                        Buffer send = create(k, sent);
                        Received got = call.run(k, op, n, root, send);
                        check(got.expected(), got.recv(), got.what(), k, n, root, r);
                        check(sent, send, got.what() + " (send must not change)", k, n, root, r);
                    }
                }
            }
        }
    }

    // ---- data ----------------------------------------------------------------------------------

    /** A value naming its rank and index, exact in every kind. */
    static long unique(int rank, int i) {
        return rank * 100_000L + i + 1;
    }

    /** A value naming source, destination and index. */
    static long pair(int src, int dst, int i) {
        return src * 10_000_000L + dst * 100_000L + i + 1;
    }

    /**
     * Rank {@code r}'s send buffer for an all-to-all over {@code p} ranks of {@code b} elements per block, and what
     * its receive buffer holds after it: {@code {send, expected}}; element i of the block rank s sends to rank d is
     * {@link #pair pair(s, d, i)}.
     */
    public static long[][] alltoallBlocks(int p, int r, int b) {
        long[] send = new long[p * b];
        long[] expected = new long[p * b];
        for (int j = 0; j < p; j++) {
            for (int i = 0; i < b; i++) {
                send[j * b + i] = pair(r, j, i);
                expected[j * b + i] = pair(j, r, i);
            }
        }
        return new long[][] {send, expected};
    }

    /** Small values in [-5, 5], zeros included, so sums and products of up to 9 ranks stay exact in doubles. */
    static long small(int rank, int i) {
        return (rank * 131L + i * 17L + 3) % 11 - 5;
    }

    /** Block sizes for all-to-all: per destination. */
    static List<Integer> blockSizes(int p) {
        if (fourMib) {
            return List.of(FOUR_MIB_INTS / p);
        }
        return new ArrayList<>(new LinkedHashSet<>(List.of(0, 1, Math.max(1, p - 1), 2 * p + 1, 200, 3000)));
    }

    /** A per-pair count between 0 and n that varies with both ranks. */
    static int vcount(int n, int a, int b) {
        return n == 0 ? 0 : (n + 3 * a + 5 * b) % (n + 1);
    }

    /** Displacements with one unused element before each block, blocks optionally laid out in reverse rank order. */
    static int[] gappedDispls(int[] counts, boolean reverse) {
        int[] d = new int[counts.length];
        int at = 0;
        for (int x = 0; x < counts.length; x++) {
            int j = reverse ? counts.length - 1 - x : x;
            at += 1;
            d[j] = at;
            at += counts[j];
        }
        return d;
    }

    static int extent(int[] counts, int[] displs) {
        int e = 0;
        for (int j = 0; j < counts.length; j++) {
            e = Math.max(e, displs[j] + counts[j]);
        }
        return e + 1;
    }

    static List<Op> ops(Kind k) {
        if (fourMib) {
            return List.of(Op.SUM);
        }
        List<Op> out = new ArrayList<>();
        for (Op op : Op.values()) {
            if (!op.isBitwise() || k.type.isInteger()) {
                out.add(op);
            }
        }
        return out;
    }

    /** The reduction of {@code small(r, i)} over ranks 0..p-1 in rank order, one scalar at a time. */
    static long[] reference(Kind k, Op op, int p, int n) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            long acc = small(0, i);
            for (int r = 1; r < p; r++) {
                long x = small(r, i);
                switch (op) {
                    case SUM: acc += x; break;
                    case PROD: acc *= x; break;
                    case MIN: acc = Math.min(acc, x); break;
                    case MAX: acc = Math.max(acc, x); break;
                    case LAND: acc = acc != 0 && x != 0 ? 1 : 0; break;
                    case LOR: acc = acc != 0 || x != 0 ? 1 : 0; break;
                    case LXOR: acc = (acc != 0) != (x != 0) ? 1 : 0; break;
                    case BAND: acc &= x; break;
                    case BOR: acc |= x; break;
                    default: acc ^= x; break;
                }
            }
            out[i] = k.type == ElementType.INT ? (int) acc : acc;
        }
        return out;
    }

    static long[] fill(int n, java.util.function.IntToLongFunction f) {
        long[] a = new long[n];
        for (int i = 0; i < n; i++) {
            a[i] = f.applyAsLong(i);
        }
        return a;
    }

    static long[] sentinels(int n) {
        long[] a = new long[n];
        java.util.Arrays.fill(a, SENTINEL);
        return a;
    }

    // ---- buffers -------------------------------------------------------------------------------

    static Buffer create(Kind k, long[] values) {
        int n = values.length;
        switch (k) {
            case INT_ARRAY: {
                int[] a = new int[n];
                for (int i = 0; i < n; i++) {
                    a[i] = (int) values[i];
                }
                return Buffer.of(a);
            }
            case DOUBLE_ARRAY: {
                double[] a = new double[n];
                for (int i = 0; i < n; i++) {
                    a[i] = values[i];
                }
                return Buffer.of(a);
            }
            default: {
                // Little-endian: the layout typed arrays travel in, and the one reductions read.
                ByteBuffer bb = ByteBuffer.allocateDirect(n * 8).order(ByteOrder.LITTLE_ENDIAN);
                for (int i = 0; i < n; i++) {
                    bb.putLong(i * 8, values[i]);
                }
                return Buffer.of(bb, ElementType.LONG);
            }
        }
    }

    static long[] read(Buffer b) {
        Buffer c = b.copy();
        int n = c.count();
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            switch (c.type()) {
                case INT: out[i] = ((int[]) c.array())[i]; break;
                case DOUBLE: {
                    double d = ((double[]) c.array())[i];
                    out[i] = (long) d;
                    if (out[i] != d) {
                        throw new AssertionError("element " + i + " is " + d + ", not an integer");
                    }
                    break;
                }
                default: out[i] = ((long[]) c.array())[i]; break;
            }
        }
        return out;
    }

    static void check(long[] expected, Buffer actual, String what, Kind k, int n, int root, int rank) {
        assertArrayEquals(expected, read(actual), () -> what + " kind=" + k + " count=" + n
                + (root >= 0 ? " root=" + root : "") + " on rank " + rank);
    }
}
