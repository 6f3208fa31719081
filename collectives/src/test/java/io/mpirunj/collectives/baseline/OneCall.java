package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Op;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.Request;
import java.util.stream.IntStream;

/**
 * One call of any collective algorithm straight through the SPI, on a channel the test chooses (so
 * it can count or break what the algorithm sends), with small int buffers of {@code n} elements per
 * rank (per block for the "v" and reduce-scatter counts, which vary by rank and include zeros).
 */
final class OneCall {
    private OneCall() {
    }

    /** The same call made non-blocking: started and returned unfinished. */
    static Request start(CollectiveAlgorithm a, CollChannel ch, int n) {
        return call(a, ch, n, false);
    }

    static void run(CollectiveAlgorithm a, CollChannel ch, int n) {
        call(a, ch, n, true);
    }

    private static Request call(CollectiveAlgorithm a, CollChannel ch, int n, boolean blocking) {
        int p = ch.size();
        int r = ch.rank();
        int root = p / 2;
        int[] counts = IntStream.range(0, p).map(j -> CollectiveScenarios.vcount(n, j, 1)).toArray();
        int[] displs = new int[p];
        for (int j = 1; j < p; j++) {
            displs[j] = displs[j - 1] + counts[j - 1];
        }
        int total = displs[p - 1] + counts[p - 1];
        Buffer one = Buffer.of(new int[n]);
        Buffer all = Buffer.of(new int[p * n]);
        int[] even = IntStream.range(0, p).map(j -> n).toArray();
        int[] at = IntStream.range(0, p).map(j -> j * n).toArray();
        // by op(), not by interface: one class may serve two operations (scan and exscan)
        return switch (a.op()) {
            case BARRIER -> ((CollectiveAlgorithm.Barrier) a).barrier(ch, blocking);
            case BCAST -> ((CollectiveAlgorithm.Bcast) a).bcast(ch, one, root, blocking);
            case MULTICAST -> ((CollectiveAlgorithm.Multicast) a).multicast(ch, one, root,
                    IntStream.range(0, p).filter(x -> x != root).toArray(), blocking);
            case ALLTOALL -> ((CollectiveAlgorithm.Alltoall) a).alltoall(ch, all, Buffer.of(new int[p * n]), blocking);
            case ALLTOALLV -> ((CollectiveAlgorithm.Alltoallv) a).alltoallv(ch, all, even, at,
                    Buffer.of(new int[p * n]), even, at, blocking);
            case GATHER -> ((CollectiveAlgorithm.Gather) a).gather(ch, one, all, root, blocking);
            case GATHERV -> ((CollectiveAlgorithm.Gatherv) a).gatherv(ch, Buffer.of(new int[counts[r]]),
                    Buffer.of(new int[total]), counts, displs, root, blocking);
            case SCATTER -> ((CollectiveAlgorithm.Scatter) a).scatter(ch, all, one, root, blocking);
            case SCATTERV -> ((CollectiveAlgorithm.Scatterv) a).scatterv(ch, Buffer.of(new int[total]), counts, displs,
                    Buffer.of(new int[counts[r]]), root, blocking);
            case ALLGATHER -> ((CollectiveAlgorithm.Allgather) a).allgather(ch, one, all, blocking);
            case ALLGATHERV -> ((CollectiveAlgorithm.Allgatherv) a).allgatherv(ch, Buffer.of(new int[counts[r]]),
                    Buffer.of(new int[total]), counts, displs, blocking);
            case REDUCE -> ((CollectiveAlgorithm.Reduce) a).reduce(ch, one, Buffer.of(new int[n]), Op.SUM, root,
                    blocking);
            case ALLREDUCE -> ((CollectiveAlgorithm.Allreduce) a).allreduce(ch, one, Buffer.of(new int[n]), Op.SUM,
                    blocking);
            case REDUCE_SCATTER -> ((CollectiveAlgorithm.ReduceScatter) a).reduceScatter(ch, Buffer.of(new int[total]),
                    Buffer.of(new int[counts[r]]), counts, Op.SUM, blocking);
            case REDUCE_SCATTER_BLOCK -> ((CollectiveAlgorithm.ReduceScatterBlock) a).reduceScatterBlock(ch, all, one,
                    Op.SUM, blocking);
            case SCAN -> ((CollectiveAlgorithm.Scan) a).scan(ch, one, Buffer.of(new int[n]), Op.SUM, blocking);
            case EXSCAN -> ((CollectiveAlgorithm.Exscan) a).exscan(ch, one, Buffer.of(new int[n]), Op.SUM, blocking);
        };
    }
}
