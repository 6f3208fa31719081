package io.mpirunj.mpicompat.programs;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/** Every collective of the bindings on Java arrays, every element checked. */
public class CollectivesArrays {
    /** The program between Init and Finalize ({@link AllPrograms}). */
    public static void run(Intracomm world, String[] args) throws MPIException {
        int me = world.getRank();
        int size = world.getSize();
        int root = size - 1;
        world.barrier();
        bcastEveryType(world, me, root);

        // gather, and gather in place at the root
        int[] g = new int[2 * size];
        world.gather(new int[] {me * 10, me * 10 + 1}, 2, MPI.INT, g, 2, MPI.INT, 0);
        if (me == 0) {
            for (int i = 0; i < 2 * size; i++) {
                Expect.equal("gather[" + i + "]", (i / 2) * 10 + i % 2, g[i]);
            }
        }
        int[] gp = new int[2 * size];
        if (me == root) {
            gp[2 * me] = me * 10;
            gp[2 * me + 1] = me * 10 + 1;
            world.gather(gp, 2, MPI.INT, root);
            for (int i = 0; i < 2 * size; i++) {
                Expect.equal("gather in place[" + i + "]", (i / 2) * 10 + i % 2, gp[i]);
            }
        } else {
            world.gather(new int[] {me * 10, me * 10 + 1}, 2, MPI.INT, root);
        }

        // gatherv: rank r sends r + 1 doubles into blocks with a gap of one element between them
        int[] counts = new int[size];
        int[] displs = new int[size];
        for (int r = 0, d = 0; r < size; r++) {
            counts[r] = r + 1;
            displs[r] = d;
            d += r + 2;
        }
        double[] mine = new double[me + 1];
        for (int k = 0; k <= me; k++) {
            mine[k] = me + 0.5 * k;
        }
        double[] gv = new double[displs[size - 1] + size + 1];
        java.util.Arrays.fill(gv, -1);
        world.gatherv(mine, me + 1, MPI.DOUBLE, gv, counts, displs, MPI.DOUBLE, 0);
        if (me == 0) {
            for (int r = 0; r < size; r++) {
                for (int k = 0; k <= r; k++) {
                    Expect.equal("gatherv block " + r + "[" + k + "]", r + 0.5 * k, gv[displs[r] + k]);
                }
                Expect.equal("gatherv gap after block " + r, -1.0, gv[displs[r] + r + 1]);
            }
        }

        // scatter and scatterv
        int[] s = new int[3 * size];
        for (int i = 0; i < s.length; i++) {
            s[i] = i * 7;
        }
        int[] got = new int[3];
        world.scatter(s, 3, MPI.INT, got, 3, MPI.INT, 0);
        for (int k = 0; k < 3; k++) {
            Expect.equal("scatter[" + k + "]", (3 * me + k) * 7, got[k]);
        }
        double[] sv = new double[gv.length];
        for (int i = 0; i < sv.length; i++) {
            sv[i] = i * 1.25;
        }
        double[] gotv = new double[me + 1];
        world.scatterv(sv, counts, displs, MPI.DOUBLE, gotv, me + 1, MPI.DOUBLE, root);
        for (int k = 0; k <= me; k++) {
            Expect.equal("scatterv[" + k + "]", (displs[me] + k) * 1.25, gotv[k]);
        }

        // allGather (also in place) and allGatherv
        long[] ag = new long[size];
        world.allGather(new long[] {(long) me * me}, 1, MPI.LONG, ag, 1, MPI.LONG);
        for (int r = 0; r < size; r++) {
            Expect.equal("allGather[" + r + "]", (long) r * r, ag[r]);
        }
        float[] agp = new float[size];
        agp[me] = me + 0.25f;
        world.allGather(agp, 1, MPI.FLOAT);
        for (int r = 0; r < size; r++) {
            Expect.equal("allGather in place[" + r + "]", r + 0.25f, agp[r]);
        }
        double[] agv = new double[gv.length];
        world.allGatherv(mine, me + 1, MPI.DOUBLE, agv, counts, displs, MPI.DOUBLE);
        for (int r = 0; r < size; r++) {
            for (int k = 0; k <= r; k++) {
                Expect.equal("allGatherv block " + r + "[" + k + "]", r + 0.5 * k, agv[displs[r] + k]);
            }
        }

        // allToAll and allToAllv
        int[] a2a = new int[2 * size];
        for (int j = 0; j < size; j++) {
            a2a[2 * j] = me * 1000 + j * 10;
            a2a[2 * j + 1] = me * 1000 + j * 10 + 1;
        }
        int[] a2aOut = new int[2 * size];
        world.allToAll(a2a, 2, MPI.INT, a2aOut, 2, MPI.INT);
        for (int j = 0; j < size; j++) {
            for (int k = 0; k < 2; k++) {
                Expect.equal("allToAll from " + j + "[" + k + "]", j * 1000 + me * 10 + k, a2aOut[2 * j + k]);
            }
        }
        int[] sc = new int[size];
        int[] sd = new int[size];
        int[] rc = new int[size];
        int[] rd = new int[size];
        for (int j = 0, d = 0; j < size; j++) {
            sc[j] = me + 1;
            sd[j] = j * (me + 1);
            rc[j] = j + 1;
            rd[j] = d;
            d += j + 1;
        }
        short[] vs = new short[size * (me + 1)];
        for (int j = 0; j < size; j++) {
            for (int k = 0; k <= me; k++) {
                vs[sd[j] + k] = (short) (me * 100 + j * 10 + k);
            }
        }
        short[] vr = new short[rd[size - 1] + size];
        world.allToAllv(vs, sc, sd, MPI.SHORT, vr, rc, rd, MPI.SHORT);
        for (int j = 0; j < size; j++) {
            for (int k = 0; k <= j; k++) {
                Expect.equal("allToAllv from " + j + "[" + k + "]", j * 100 + me * 10 + k, vr[rd[j] + k]);
            }
        }

        reductions(world, me, size, root);
    }

    private static void bcastEveryType(Intracomm world, int me, int root) {
        boolean isRoot = me == root;
        byte[] b = isRoot ? new byte[] {1, -2, 3} : new byte[3];
        char[] c = isRoot ? "héllo".toCharArray() : new char[5];
        short[] s = isRoot ? new short[] {-300, 300} : new short[2];
        boolean[] z = isRoot ? new boolean[] {true, false, true} : new boolean[3];
        int[] i = isRoot ? new int[] {Integer.MIN_VALUE, 7} : new int[2];
        long[] l = isRoot ? new long[] {Long.MAX_VALUE, -9} : new long[2];
        float[] f = isRoot ? new float[] {1.5f, -0f} : new float[2];
        double[] d = isRoot ? new double[] {Math.PI, Double.NaN} : new double[2];
        world.bcast(b, 3, MPI.BYTE, root);
        world.bcast(c, 5, MPI.CHAR, root);
        world.bcast(s, 2, MPI.SHORT, root);
        world.bcast(z, 3, MPI.BOOLEAN, root);
        world.bcast(i, 2, MPI.INT, root);
        world.bcast(l, 2, MPI.LONG, root);
        world.bcast(f, 2, MPI.FLOAT, root);
        world.bcast(d, 2, MPI.DOUBLE, root);
        Expect.isTrue("bcast byte[]", java.util.Arrays.equals(b, new byte[] {1, -2, 3}));
        Expect.isTrue("bcast char[]", new String(c).equals("héllo"));
        Expect.isTrue("bcast short[]", java.util.Arrays.equals(s, new short[] {-300, 300}));
        Expect.isTrue("bcast boolean[]", java.util.Arrays.equals(z, new boolean[] {true, false, true}));
        Expect.isTrue("bcast int[]", java.util.Arrays.equals(i, new int[] {Integer.MIN_VALUE, 7}));
        Expect.isTrue("bcast long[]", java.util.Arrays.equals(l, new long[] {Long.MAX_VALUE, -9}));
        Expect.isTrue("bcast float[]", java.util.Arrays.equals(f, new float[] {1.5f, -0f}));
        Expect.isTrue("bcast double[]", java.util.Arrays.equals(d, new double[] {Math.PI, Double.NaN}));
    }

    private static void reductions(Intracomm world, int me, int size, int root) {
        int triangle = size * (size - 1) / 2;
        int[] send = new int[4];
        for (int k = 0; k < 4; k++) {
            send[k] = me + k;
        }
        int[] sum = new int[4];
        world.reduce(send, sum, 4, MPI.INT, MPI.SUM, root);
        if (me == root) {
            for (int k = 0; k < 4; k++) {
                Expect.equal("reduce SUM[" + k + "]", triangle + size * k, sum[k]);
            }
        }
        int[] inPlace = send.clone();
        world.reduce(inPlace, 4, MPI.INT, MPI.MAX, 0);
        if (me == 0) {
            for (int k = 0; k < 4; k++) {
                Expect.equal("reduce MAX in place[" + k + "]", size - 1 + k, inPlace[k]);
            }
        }
        double[] dmin = new double[1];
        world.allReduce(new double[] {10.0 - me}, dmin, 1, MPI.DOUBLE, MPI.MIN);
        Expect.equal("allReduce MIN double", 10.0 - (size - 1), dmin[0]);
        long[] prod = {me + 1};
        world.allReduce(prod, 1, MPI.LONG, MPI.PROD);
        long factorial = 1;
        for (int r = 1; r <= size; r++) {
            factorial *= r;
        }
        Expect.equal("allReduce PROD long in place", factorial, prod[0]);
        short[] ssum = new short[2];
        world.allReduce(new short[] {(short) me, (short) -me}, ssum, 2, MPI.SHORT, MPI.SUM);
        Expect.equal("allReduce SUM short[0]", triangle, ssum[0]);
        Expect.equal("allReduce SUM short[1]", -triangle, ssum[1]);
        boolean[] any = new boolean[2];
        world.allReduce(new boolean[] {me == size - 1, me == size}, any, 2, MPI.BOOLEAN, MPI.LOR);
        Expect.isTrue("allReduce LOR boolean", any[0] && !any[1]);
        int[] bx = new int[1];
        world.allReduce(new int[] {1 << me}, bx, 1, MPI.INT, MPI.BXOR);
        Expect.equal("allReduce BXOR", (1 << size) - 1, bx[0]);
        char[] cmax = new char[1];
        world.allReduce(new char[] {(char) ('a' + me)}, cmax, 1, MPI.CHAR, MPI.MAX);
        Expect.equal("allReduce MAX char", 'a' + size - 1, cmax[0]);

        // reduceScatterBlock and reduceScatter
        int[] rsIn = new int[2 * size];
        for (int j = 0; j < rsIn.length; j++) {
            rsIn[j] = me + j;
        }
        int[] rsOut = new int[2];
        world.reduceScatterBlock(rsIn, rsOut, 2, MPI.INT, MPI.SUM);
        for (int k = 0; k < 2; k++) {
            Expect.equal("reduceScatterBlock[" + k + "]", triangle + size * (2 * me + k), rsOut[k]);
        }
        int[] rcounts = new int[size];
        int total = 0;
        int mineAt = 0;
        for (int r = 0; r < size; r++) {
            rcounts[r] = r + 1;
            if (r < me) {
                mineAt += r + 1;
            }
            total += r + 1;
        }
        double[] rsv = new double[total];
        for (int j = 0; j < total; j++) {
            rsv[j] = j + me;
        }
        double[] rsvOut = new double[me + 1];
        world.reduceScatter(rsv, rsvOut, rcounts, MPI.DOUBLE, MPI.SUM);
        for (int k = 0; k <= me; k++) {
            Expect.equal("reduceScatter[" + k + "]", (double) size * (mineAt + k) + triangle, rsvOut[k]);
        }

        // scan and exScan
        int[] scan = new int[1];
        world.scan(new int[] {me + 1}, scan, 1, MPI.INT, MPI.SUM);
        Expect.equal("scan", (me + 1) * (me + 2) / 2, scan[0]);
        int[] ex = {-1};
        world.exScan(new int[] {me + 1}, ex, 1, MPI.INT, MPI.SUM);
        Expect.equal("exScan", me == 0 ? -1 : me * (me + 1) / 2, ex[0]);

        // sendRecvReplace around the ring
        int[] token = {me * 3, me * 3 + 1};
        int left = Neighbours.left(world);
        world.sendRecvReplace(token, 2, MPI.INT, Neighbours.right(world), 5, left, 5);
        Expect.equal("sendRecvReplace[0]", left * 3, token[0]);
        Expect.equal("sendRecvReplace[1]", left * 3 + 1, token[1]);
    }
}
