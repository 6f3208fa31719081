package io.mpirunj.mpicompat.programs;

import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;

/**
 * Non-blocking exchange: neighbour exchange with iSend/iRecv on direct buffers, the MVAPICH2-J array
 * forms, heap buffers, waitAny/test, persistent requests, probe, and non-blocking collectives.
 */
public class NonBlocking {
    /** The program between Init and Finalize ({@link AllPrograms}). */
    public static void run(Intracomm world, String[] args) throws MPIException {
        int me = world.getRank();
        int size = world.getSize();
        int right = Neighbours.right(world);
        int left = Neighbours.left(world);

        // direct buffers, both neighbours, waitAll
        IntBuffer toRight = MPI.newIntBuffer(3);
        IntBuffer toLeft = MPI.newIntBuffer(3);
        IntBuffer fromLeft = MPI.newIntBuffer(3);
        IntBuffer fromRight = MPI.newIntBuffer(3);
        for (int k = 0; k < 3; k++) {
            toRight.put(k, me * 10 + k);
            toLeft.put(k, -(me * 10 + k));
        }
        Request[] rq = {
            world.iRecv(fromLeft, 3, MPI.INT, left, 1),
            world.iRecv(fromRight, 3, MPI.INT, right, 2),
            world.iSend(toRight, 3, MPI.INT, right, 1),
            world.iSend(toLeft, 3, MPI.INT, left, 2),
        };
        Status[] st = Request.waitAllStatus(rq);
        Expect.equal("waitAll status source", left, st[0].getSource());
        Expect.equal("waitAll status count", 3, st[0].getCount(MPI.INT));
        for (int k = 0; k < 3; k++) {
            Expect.equal("from left[" + k + "]", left * 10 + k, fromLeft.get(k));
            Expect.equal("from right[" + k + "]", -(right * 10 + k), fromRight.get(k));
        }
        Expect.isTrue("requests are inactive after waitAll", rq[0].isNull());

        // the MVAPICH2-J array forms, waitAny until all are done
        double[] out = {me + 0.5, me + 0.75};
        double[] in = new double[2];
        Request[] pair = {world.iRecv(in, 2, MPI.DOUBLE, left, 3), world.iSend(out, 2, MPI.DOUBLE, right, 3)};
        int done = 0;
        while (done < 2) {
            int i = Request.waitAny(pair);
            Expect.isTrue("waitAny index", i == 0 || i == 1);
            done++;
        }
        Expect.equal("waitAny after all", MPI.UNDEFINED, Request.waitAny(pair));
        Expect.equal("array iRecv[0]", left + 0.5, in[0]);
        Expect.equal("array iRecv[1]", left + 0.75, in[1]);

        // a heap buffer in iRecv (Open MPI requires direct buffers here) and test() until done
        int[] heap = new int[4];
        Request r = world.iRecv(IntBuffer.wrap(heap), 4, MPI.INT, left, 4);
        world.send(new int[] {me, me, me, me}, 4, MPI.INT, right, 4);
        while (!r.test()) {
            Thread.onSpinWait();
        }
        for (int k = 0; k < 4; k++) {
            Expect.equal("heap iRecv[" + k + "]", left, heap[k]);
        }

        // persistent requests, three rounds
        IntBuffer ps = MPI.newIntBuffer(1);
        IntBuffer pr = MPI.newIntBuffer(1);
        Prequest send = world.sendInit(ps, 1, MPI.INT, right, 6);
        Prequest recv = world.recvInit(pr, 1, MPI.INT, left, 6);
        for (int round = 0; round < 3; round++) {
            ps.put(0, me * 100 + round);
            Prequest.startAll(new Prequest[] {recv, send});
            recv.waitFor();
            send.waitFor();
            Expect.equal("persistent round " + round, left * 100 + round, pr.get(0));
        }
        send.free();
        recv.free();

        // probe, then receive what it saw
        world.send(new long[] {me, me + 1, me + 2}, me % 3 + 1, MPI.LONG, right, 7);
        Status probed = world.probe(left, 7);
        int n = probed.getCount(MPI.LONG);
        Expect.equal("probe count", left % 3 + 1, n);
        long[] got = new long[n];
        world.recv(got, n, MPI.LONG, probed.getSource(), probed.getTag());
        Expect.equal("probed message[0]", left, got[0]);
        Expect.isTrue("nothing left to iProbe", world.iProbe(MPI.ANY_SOURCE, 7) == null);

        nonBlockingCollectives(world, me, size);
    }

    private static void nonBlockingCollectives(Intracomm world, int me, int size) {
        int root = size - 1;
        DoubleBuffer bc = MPI.newDoubleBuffer(2);
        if (me == root) {
            bc.put(0, 2.5).put(1, -1);
        }
        IntBuffer sum = MPI.newIntBuffer(1);
        IntBuffer one = MPI.newIntBuffer(1);
        one.put(0, me + 1);
        IntBuffer gathered = MPI.newIntBuffer(size);
        IntBuffer scan = MPI.newIntBuffer(1);
        IntBuffer a2aIn = MPI.newIntBuffer(size);
        IntBuffer a2aOut = MPI.newIntBuffer(size);
        for (int j = 0; j < size; j++) {
            a2aIn.put(j, me * 100 + j);
        }
        IntBuffer reduced = MPI.newIntBuffer(1);
        Request[] all = {
            world.iBcast(bc, 2, MPI.DOUBLE, root),
            world.iAllReduce(one, sum, 1, MPI.INT, MPI.SUM),
            world.iAllGather(one, 1, MPI.INT, gathered, 1, MPI.INT),
            world.iScan(one, scan, 1, MPI.INT, MPI.SUM),
            world.iAllToAll(a2aIn, 1, MPI.INT, a2aOut, 1, MPI.INT),
            world.iReduce(one, reduced, 1, MPI.INT, MPI.MAX, 0),
            world.iBarrier(),
        };
        Request.waitAll(all);
        Expect.equal("iBcast[0]", 2.5, bc.get(0));
        Expect.equal("iBcast[1]", -1.0, bc.get(1));
        Expect.equal("iAllReduce", size * (size + 1) / 2, sum.get(0));
        for (int r = 0; r < size; r++) {
            Expect.equal("iAllGather[" + r + "]", r + 1, gathered.get(r));
            Expect.equal("iAllToAll from " + r, r * 100 + me, a2aOut.get(r));
        }
        Expect.equal("iScan", (me + 1) * (me + 2) / 2, scan.get(0));
        if (me == 0) {
            Expect.equal("iReduce MAX", size, reduced.get(0));
        }
        // a heap buffer in a non-blocking collective
        int[] heap = new int[1];
        world.iAllReduce(IntBuffer.wrap(new int[] {1}), IntBuffer.wrap(heap), 1, MPI.INT, MPI.SUM).waitFor();
        Expect.equal("iAllReduce on heap buffers", size, heap[0]);

        // staged data (chars and shorts, a direct int buffer), the scans and the reduce-scatters
        CharBuffer letters = CharBuffer.wrap(new char[size]);
        IntBuffer ex = MPI.newIntBuffer(1);
        ex.put(0, -1);
        IntBuffer rsIn = MPI.newIntBuffer(size);
        for (int j = 0; j < size; j++) {
            rsIn.put(j, me + j);
        }
        IntBuffer rsOut = MPI.newIntBuffer(1);
        int[] counts = new int[size];
        java.util.Arrays.fill(counts, 1);
        long[] rsvOut = new long[1];
        long[] rsvIn = new long[size];
        for (int j = 0; j < size; j++) {
            rsvIn[j] = (long) me * j;
        }
        ShortBuffer shortSum = ShortBuffer.allocate(1);
        Request[] more = {
            world.iAllGather(CharBuffer.wrap(new char[] {(char) ('a' + me)}), 1, MPI.CHAR, letters, 1, MPI.CHAR),
            world.iExScan(one, ex, 1, MPI.INT, MPI.SUM),
            world.iReduceScatterBlock(rsIn, rsOut, 1, MPI.INT, MPI.SUM),
            world.iReduceScatter(LongBuffer.wrap(rsvIn), LongBuffer.wrap(rsvOut), counts, MPI.LONG, MPI.SUM),
            world.iAllReduce(ShortBuffer.wrap(new short[] {(short) -me}), shortSum, 1, MPI.SHORT, MPI.SUM),
        };
        Request.waitAll(more);
        int triangle = size * (size - 1) / 2;
        for (int r = 0; r < size; r++) {
            Expect.equal("iAllGather chars[" + r + "]", 'a' + r, letters.get(r));
        }
        Expect.equal("iExScan (rank 0 keeps its value)", me == 0 ? -1 : me * (me + 1) / 2, ex.get(0));
        Expect.equal("iReduceScatterBlock", triangle + size * me, rsOut.get(0));
        Expect.equal("iReduceScatter", (long) triangle * me, rsvOut[0]);
        Expect.equal("iAllReduce shorts", -triangle, shortSum.get(0));

        // progress with no wait: while the root of an iBcast (past the eager limit) is blocked in a
        // receive, the bcast reaches every rank, and the one the root waits for tells it so
        int big = 100_000;
        int[] data = new int[big];
        if (me == root) {
            for (int i = 0; i < big; i++) {
                data[i] = i ^ 0x5a5a;
            }
        }
        Request bcast = world.iBcast(IntBuffer.wrap(data), big, MPI.INT, root);
        int last = (root + size - 1) % size;
        if (me == root && size > 1) {
            world.recv(new int[1], 1, MPI.INT, last, 11);
        } else if (me == last && size > 1) {
            bcast.waitFor();
            world.send(new int[] {1}, 1, MPI.INT, root, 11);
        }
        bcast.waitFor();
        for (int i = 0; i < big; i++) {
            Expect.equal("large iBcast[" + i + "]", i ^ 0x5a5a, data[i]);
        }
    }
}
