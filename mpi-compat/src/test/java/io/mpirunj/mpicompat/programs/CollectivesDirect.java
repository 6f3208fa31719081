package io.mpirunj.mpicompat.programs;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Every collective on direct NIO buffers made by {@code MPI.newXxxBuffer}, every element checked;
 * data start at index 0 and the buffers' positions and limits are left as they were.
 */
public class CollectivesDirect {
    /** The program between Init and Finalize ({@link AllPrograms}). */
    public static void run(Intracomm world, String[] args) throws MPIException {
        int me = world.getRank();
        int size = world.getSize();
        int root = size / 2;

        IntBuffer b = MPI.newIntBuffer(4);
        b.position(3); // must neither matter nor change
        if (me == root) {
            for (int k = 0; k < 4; k++) {
                b.put(k, 40 + k);
            }
        }
        world.bcast(b, 4, MPI.INT, root);
        for (int k = 0; k < 4; k++) {
            Expect.equal("bcast[" + k + "]", 40 + k, b.get(k));
        }
        Expect.equal("position after bcast", 3, b.position());

        ByteBuffer bytes = MPI.newByteBuffer(8); // a byte buffer of ints, in native order
        bytes.putInt(0, me).putInt(4, -me);
        ByteBuffer gathered = MPI.newByteBuffer(8 * size);
        world.gather(bytes, 2, MPI.INT, gathered, 2, MPI.INT, 0);
        if (me == 0) {
            for (int r = 0; r < size; r++) {
                Expect.equal("gather[" + r + "]", r, gathered.getInt(8 * r));
                Expect.equal("gather[" + r + "]'", -r, gathered.getInt(8 * r + 4));
            }
        }
        Expect.equal("gather leaves the limit", 8L * size, gathered.limit());

        DoubleBuffer all = MPI.newDoubleBuffer(2 * size);
        DoubleBuffer part = MPI.newDoubleBuffer(2);
        if (me == 0) {
            for (int i = 0; i < 2 * size; i++) {
                all.put(i, i / 4.0);
            }
        }
        world.scatter(all, 2, MPI.DOUBLE, part, 2, MPI.DOUBLE, 0);
        Expect.equal("scatter[0]", 2 * me / 4.0, part.get(0));
        Expect.equal("scatter[1]", (2 * me + 1) / 4.0, part.get(1));

        LongBuffer ag = MPI.newLongBuffer(size);
        LongBuffer one = MPI.newLongBuffer(1);
        one.put(0, 1L << (me + 20));
        world.allGather(one, 1, MPI.LONG, ag, 1, MPI.LONG);
        for (int r = 0; r < size; r++) {
            Expect.equal("allGather[" + r + "]", 1L << (r + 20), ag.get(r));
        }

        IntBuffer a2a = MPI.newIntBuffer(size);
        IntBuffer a2aOut = MPI.newIntBuffer(size);
        for (int j = 0; j < size; j++) {
            a2a.put(j, me * 100 + j);
        }
        world.allToAll(a2a, 1, MPI.INT, a2aOut, 1, MPI.INT);
        for (int j = 0; j < size; j++) {
            Expect.equal("allToAll from " + j, j * 100 + me, a2aOut.get(j));
        }

        int[] counts = new int[size];
        int[] displs = new int[size];
        int total = 0;
        for (int r = 0; r < size; r++) {
            counts[r] = r + 1;
            displs[r] = total;
            total += r + 1;
        }
        IntBuffer mine = MPI.newIntBuffer(me + 1);
        for (int k = 0; k <= me; k++) {
            mine.put(k, me * 10 + k);
        }
        IntBuffer gv = MPI.newIntBuffer(total);
        world.gatherv(mine, me + 1, MPI.INT, gv, counts, displs, MPI.INT, root);
        IntBuffer agv = MPI.newIntBuffer(total);
        world.allGatherv(mine, me + 1, MPI.INT, agv, counts, displs, MPI.INT);
        for (int r = 0; r < size; r++) {
            for (int k = 0; k <= r; k++) {
                if (me == root) {
                    Expect.equal("gatherv " + r + "[" + k + "]", r * 10 + k, gv.get(displs[r] + k));
                }
                Expect.equal("allGatherv " + r + "[" + k + "]", r * 10 + k, agv.get(displs[r] + k));
            }
        }
        IntBuffer back = MPI.newIntBuffer(me + 1);
        world.scatterv(agv, counts, displs, MPI.INT, back, me + 1, MPI.INT, 0);
        for (int k = 0; k <= me; k++) {
            Expect.equal("scatterv[" + k + "]", me * 10 + k, back.get(k));
        }
        int[] ones = new int[size];
        int[] seq = new int[size];
        for (int j = 0; j < size; j++) {
            ones[j] = 1;
            seq[j] = j;
        }
        IntBuffer vOut = MPI.newIntBuffer(size);
        world.allToAllv(a2a, ones, seq, MPI.INT, vOut, ones, seq, MPI.INT);
        for (int j = 0; j < size; j++) {
            Expect.equal("allToAllv from " + j, j * 100 + me, vOut.get(j));
        }

        DoubleBuffer x = MPI.newDoubleBuffer(3);
        DoubleBuffer y = MPI.newDoubleBuffer(3);
        for (int k = 0; k < 3; k++) {
            x.put(k, me * (k + 1));
        }
        world.reduce(x, y, 3, MPI.DOUBLE, MPI.SUM, root);
        int triangle = size * (size - 1) / 2;
        if (me == root) {
            for (int k = 0; k < 3; k++) {
                Expect.equal("reduce SUM[" + k + "]", (double) triangle * (k + 1), y.get(k));
            }
        }
        world.allReduce(x, y, 3, MPI.DOUBLE, MPI.MAX);
        for (int k = 0; k < 3; k++) {
            Expect.equal("allReduce MAX[" + k + "]", (double) (size - 1) * (k + 1), y.get(k));
        }
        IntBuffer rs = MPI.newIntBuffer(size);
        for (int j = 0; j < size; j++) {
            rs.put(j, j * me);
        }
        IntBuffer rsOut = MPI.newIntBuffer(1);
        world.reduceScatterBlock(rs, rsOut, 1, MPI.INT, MPI.SUM);
        Expect.equal("reduceScatterBlock", me * triangle, rsOut.get(0));
        IntBuffer sc = MPI.newIntBuffer(1);
        IntBuffer scOut = MPI.newIntBuffer(1);
        sc.put(0, 2);
        world.scan(sc, scOut, 1, MPI.INT, MPI.PROD);
        Expect.equal("scan PROD", 1 << (me + 1), scOut.get(0));
        IntBuffer ex = MPI.newIntBuffer(1);
        ex.put(0, -1);
        world.exScan(sc, ex, 1, MPI.INT, MPI.PROD);
        Expect.equal("exScan PROD (rank 0 keeps its value)", me == 0 ? -1 : 1 << me, ex.get(0));
        // reduceScatter, uneven blocks: rank j gets j + 1 longs, element i of the whole vector sums to i * triangle
        int[] rsCounts = new int[size];
        int rsTotal = 0;
        int mineAt = 0;
        for (int r = 0; r < size; r++) {
            rsCounts[r] = r + 1;
            mineAt += r < me ? r + 1 : 0;
            rsTotal += r + 1;
        }
        LongBuffer rsv = MPI.newLongBuffer(rsTotal);
        for (int i = 0; i < rsTotal; i++) {
            rsv.put(i, (long) i * me);
        }
        LongBuffer rsvOut = MPI.newLongBuffer(me + 1);
        world.reduceScatter(rsv, rsvOut, rsCounts, MPI.LONG, MPI.SUM);
        for (int k = 0; k <= me; k++) {
            Expect.equal("reduceScatter[" + k + "]", (long) (mineAt + k) * triangle, rsvOut.get(k));
        }
        world.barrier();

        // a heap buffer from MPI.slice: data start at the slice's index 0
        int[] arr = new int[size + 2];
        world.allGather(new int[] {me + 1}, 1, MPI.INT, MPI.slice(arr, 2), 1, MPI.INT);
        Expect.equal("slice leaves index 0", 0, arr[0]);
        for (int r = 0; r < size; r++) {
            Expect.equal("allGather into a slice[" + r + "]", r + 1, arr[2 + r]);
        }
    }
}
