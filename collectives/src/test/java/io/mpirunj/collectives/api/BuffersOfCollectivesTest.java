package io.mpirunj.collectives.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Op;
import io.mpirunj.testing.LocalCluster;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a collective takes as its buffers: the same array for send and receive, and none where it is ignored. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BuffersOfCollectivesTest {

    /**
     * An all-to-all with one array as send and receive buffer is right (it sent blocks it had already received:
     * rank 0 of 4 got [0, 1, 20, 30], exit 0, a new user's trial); also as alltoallv and non-blocking.
     */
    @ParameterizedTest(name = "np {0}, {1}")
    @CsvSource({"2, pairwise", "3, linear", "4, pairwise", "4, bruck", "5, linear", "8, bruck"})
    void anAlltoallInPlaceIsRight(int np, String algorithm) {
        LocalCluster.run(np, world -> {
            Comm comm = world.withCollectives("alltoall=" + algorithm);
            int r = comm.rank();
            int[] x = new int[2 * np];
            for (int i = 0; i < x.length; i++) {
                x[i] = 100 * r + i;
            }
            comm.alltoall(Buffer.of(x), Buffer.of(x));
            int[] expected = new int[2 * np];
            for (int j = 0; j < np; j++) {
                expected[2 * j] = 100 * j + 2 * r;
                expected[2 * j + 1] = 100 * j + 2 * r + 1;
            }
            assertArrayEquals(expected, x);
            int[] counts = new int[np];
            int[] displs = new int[np];
            for (int j = 0; j < np; j++) {
                counts[j] = 1;
                displs[j] = j;
            }
            int[] y = new int[np];
            for (int j = 0; j < np; j++) {
                y[j] = 10 * r + j;
            }
            comm.ialltoall(Buffer.of(y, 0, np), Buffer.of(y)).await(); // the view and the array overlap too
            for (int j = 0; j < np; j++) {
                assertEquals(10 * j + r, y[j]);
            }
            comm.alltoallv(Buffer.of(y), counts, displs, Buffer.of(y), counts, displs);
            for (int j = 0; j < np; j++) {
                assertEquals(10 * r + j, y[j], "alltoallv in place, back where it started");
            }
        });
    }

    /**
     * Where the javadoc says a buffer is ignored (reduce's and gather's recv, scatter's send off the root), null is
     * none, as in gatherv and scatterv (it was a NullPointerException from the algorithm's runner).
     */
    @ParameterizedTest(name = "np {0}, {1}")
    @CsvSource({"2, binomial", "3, linear", "5, binomial", "8, linear"})
    void anIgnoredBufferMayBeNull(int np, String algorithm) {
        LocalCluster.run(np, world -> {
            Comm comm = world.withCollectives("gather=" + algorithm + ",scatter=" + algorithm);
            int r = comm.rank();
            int root = np / 2;
            double[] mine = {r + 1};
            double[] sum = new double[1];
            comm.reduce(Buffer.of(mine), r == root ? Buffer.of(sum) : null, Op.SUM, root);
            comm.ireduce(Buffer.of(mine), r == root ? Buffer.of(sum) : null, Op.MAX, root).await();
            assertEquals(r + 1, mine[0], "the send buffer is left alone");
            int[] all = new int[np];
            comm.gather(Buffer.of(new int[] {3 * r}), r == root ? Buffer.of(all) : null, root);
            int[] block = new int[1];
            int[] blocks = new int[np];
            for (int j = 0; j < np; j++) {
                blocks[j] = 7 * j;
            }
            comm.scatter(r == root ? Buffer.of(blocks) : null, Buffer.of(block), root);
            assertEquals(7 * r, block[0]);
            if (r == root) {
                assertEquals(np, sum[0], "the max of 1..np");
                for (int j = 0; j < np; j++) {
                    assertEquals(3 * j, all[j]);
                }
            }
        });
    }
}
