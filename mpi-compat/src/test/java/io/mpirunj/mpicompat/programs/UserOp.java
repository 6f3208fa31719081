package io.mpirunj.mpicompat.programs;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.UserFunction;

/**
 * User-defined operations (a non-commutative 2x2 matrix product, whose result shows the rank order),
 * MINLOC/MAXLOC on pairs, reduceLocal, and the same reductions (scans and reduce-scatters too) started
 * non-blocking.
 */
public class UserOp {
    /** inOut = in x inOut for each 2x2 int matrix (row-major), as MPI's order r0 x r1 x ... needs. */
    static final class MatrixProduct extends UserFunction {
        @Override
        public void call(Object inVec, Object inOutVec, int count, Datatype datatype) {
            int[] a = (int[]) inVec;
            int[] b = (int[]) inOutVec;
            for (int m = 0; m < count; m++) {
                int o = 4 * m;
                int[] c = multiply(a[o], a[o + 1], a[o + 2], a[o + 3], b[o], b[o + 1], b[o + 2], b[o + 3]);
                System.arraycopy(c, 0, b, o, 4);
            }
        }
    }

    static int[] multiply(int a0, int a1, int a2, int a3, int b0, int b1, int b2, int b3) {
        return new int[] {a0 * b0 + a1 * b2, a0 * b1 + a1 * b3, a2 * b0 + a3 * b2, a2 * b1 + a3 * b3};
    }

    /** The matrix of rank r: [[1, r + 1], [r, 1]] (no two of them commute). */
    static int[] matrixOf(int r) {
        return new int[] {1, r + 1, r, 1};
    }

    /** r0 x r1 x ... x r(upTo). */
    static int[] productUpTo(int upTo) {
        int[] p = matrixOf(0);
        for (int r = 1; r <= upTo; r++) {
            int[] m = matrixOf(r);
            p = multiply(p[0], p[1], p[2], p[3], m[0], m[1], m[2], m[3]);
        }
        return p;
    }

    /** The program between Init and Finalize ({@link AllPrograms}). */
    public static void run(Intracomm world, String[] args) throws MPIException {
        int me = world.getRank();
        int size = world.getSize();
        int root = size - 1;

        Datatype matrix = Datatype.createContiguous(4, MPI.INT);
        matrix.commit();
        Op product = new Op(new MatrixProduct(), false);
        Expect.isTrue("not commutative", !product.isCommutative());
        int[] result = new int[4];
        world.reduce(matrixOf(me), result, 1, matrix, product, root);
        int[] expected = productUpTo(size - 1);
        if (me == root) {
            for (int k = 0; k < 4; k++) {
                Expect.equal("user-op reduce[" + k + "]", expected[k], result[k]);
            }
        }
        int[] everywhere = new int[4];
        world.allReduce(matrixOf(me), everywhere, 1, matrix, product);
        for (int k = 0; k < 4; k++) {
            Expect.equal("user-op allReduce[" + k + "]", expected[k], everywhere[k]);
        }
        int[] prefix = new int[4];
        world.scan(matrixOf(me), prefix, 1, matrix, product);
        int[] mine = productUpTo(me);
        for (int k = 0; k < 4; k++) {
            Expect.equal("user-op scan[" + k + "]", mine[k], prefix[k]);
        }

        // the same op on direct byte buffers goes through the byte-buffer form of the function
        ByteBuffer in = MPI.newByteBuffer(16);
        ByteBuffer out = MPI.newByteBuffer(16);
        for (int k = 0; k < 4; k++) {
            in.putInt(4 * k, matrixOf(me)[k]);
        }
        world.allReduce(in, out, 1, matrix, product);
        for (int k = 0; k < 4; k++) {
            Expect.equal("user-op allReduce on a byte buffer[" + k + "]", expected[k], out.getInt(4 * k));
        }

        // MAXLOC and MINLOC on INT2 pairs (value, index): values peak in the middle
        int[] pairs = {Math.min(me, size - 1 - me), me, me % 3, me};
        int[] maxloc = new int[4];
        world.allReduce(pairs, maxloc, 2, MPI.INT2, MPI.MAXLOC);
        Expect.equal("MAXLOC value", (size - 1) / 2, maxloc[0]);
        Expect.equal("MAXLOC index (the first of equals)", (size - 1) / 2, maxloc[1]);
        Expect.equal("MAXLOC value 2", Math.min(2, size - 1), maxloc[2]);
        Expect.equal("MAXLOC index 2", Math.min(2, size - 1), maxloc[3]);
        int[] minloc = new int[4];
        world.reduce(pairs, minloc, 2, MPI.INT2, MPI.MINLOC, 0);
        if (me == 0) {
            Expect.equal("MINLOC value", 0, minloc[0]);
            Expect.equal("MINLOC index", 0, minloc[1]);
        }

        // DOUBLE_INT structs in a direct buffer: double value at 0, int index at 8, 16 bytes each
        ByteBuffer di = MPI.newByteBuffer(16).order(ByteOrder.LITTLE_ENDIAN);
        di.putDouble(0, 1.0 / (me + 1)).putInt(8, me);
        ByteBuffer diOut = MPI.newByteBuffer(16).order(ByteOrder.LITTLE_ENDIAN);
        world.allReduce(di, diOut, 1, MPI.DOUBLE_INT, MPI.MINLOC);
        Expect.equal("DOUBLE_INT MINLOC value", 1.0 / size, diOut.getDouble(0));
        Expect.equal("DOUBLE_INT MINLOC index", size - 1, diOut.getInt(8));

        // reduceLocal: inOut = in op inOut on this rank alone
        int[] local = matrixOf(1);
        mpi.Comm.reduceLocal(matrixOf(0), local, 1, matrix, product);
        int[] p01 = productUpTo(1);
        for (int k = 0; k < 4; k++) {
            Expect.equal("reduceLocal[" + k + "]", p01[k], local[k]);
        }

        exScanAndReduceScatter(world, me, size, matrix, product);
        nonBlocking(world, me, size, matrix, product);
    }

    /** Matrix j of rank r's reduceScatter contribution: rank r's matrix with j added to its corner. */
    static int[] blockOf(int r, int j) {
        int[] m = matrixOf(r);
        m[3] += j;
        return m;
    }

    /** r0 x r1 x ... x r(size-1) of {@link #blockOf}(r, j). */
    static int[] blockProduct(int size, int j) {
        int[] p = blockOf(0, j);
        for (int r = 1; r < size; r++) {
            int[] m = blockOf(r, j);
            p = multiply(p[0], p[1], p[2], p[3], m[0], m[1], m[2], m[3]);
        }
        return p;
    }

    private static void expectMatrix(String what, int[] expected, int[] actual, int at) {
        for (int k = 0; k < 4; k++) {
            Expect.equal(what + "[" + k + "]", expected[k], actual[at + k]);
        }
    }

    private static void exScanAndReduceScatter(Intracomm world, int me, int size, Datatype matrix, Op product) {
        int[] untouched = {-7, -7, -7, -7};
        int[] ex = untouched.clone();
        world.exScan(matrixOf(me), ex, 1, matrix, product);
        expectMatrix("user-op exScan", me == 0 ? untouched : productUpTo(me - 1), ex, 0);

        // reduceScatterBlock: rank j gets the product of every rank's matrix j
        int[] blocks = new int[4 * size];
        for (int j = 0; j < size; j++) {
            System.arraycopy(blockOf(me, j), 0, blocks, 4 * j, 4);
        }
        int[] mineOut = new int[4];
        world.reduceScatterBlock(blocks, mineOut, 1, matrix, product);
        expectMatrix("user-op reduceScatterBlock", blockProduct(size, me), mineOut, 0);

        // reduceScatter with uneven counts: rank j gets j % 2 + 1 matrices (MAXLOC pairs: the same way)
        int[] counts = new int[size];
        int total = 0;
        for (int j = 0; j < size; j++) {
            counts[j] = j % 2 + 1;
            total += counts[j];
        }
        int[] all = new int[4 * total];
        int[] firstOf = new int[size];
        for (int j = 0, at = 0; j < size; j++) {
            firstOf[j] = at;
            for (int b = 0; b < counts[j]; b++, at++) {
                System.arraycopy(blockOf(me, at), 0, all, 4 * at, 4);
            }
        }
        int[] got = new int[4 * counts[me]];
        world.reduceScatter(all, got, counts, matrix, product);
        for (int b = 0; b < counts[me]; b++) {
            expectMatrix("user-op reduceScatter block " + b, blockProduct(size, firstOf[me] + b), got, 4 * b);
        }
    }

    /** The same reductions started non-blocking, all outstanding at once, on heap and direct buffers. */
    private static void nonBlocking(Intracomm world, int me, int size, Datatype matrix, Op product) {
        int root = size / 2;
        int[] reduced = new int[4];
        int[] everywhere = new int[4];
        int[] prefix = new int[4];
        int[] untouched = {-7, -7, -7, -7};
        int[] ex = untouched.clone();
        ByteBuffer blocks = MPI.newByteBuffer(16 * size).order(ByteOrder.LITTLE_ENDIAN);
        for (int j = 0; j < size; j++) {
            for (int k = 0; k < 4; k++) {
                blocks.putInt(16 * j + 4 * k, blockOf(me, j)[k]);
            }
        }
        ByteBuffer scattered = MPI.newByteBuffer(16).order(ByteOrder.LITTLE_ENDIAN);
        IntBuffer pairs = IntBuffer.wrap(new int[] {Math.min(me, size - 1 - me), me});
        IntBuffer maxloc = MPI.newIntBuffer(2); // a direct int buffer: staged through a byte image
        mpi.Request[] started = {
            world.iReduce(IntBuffer.wrap(matrixOf(me)), IntBuffer.wrap(reduced), 1, matrix, product, root),
            world.iAllReduce(IntBuffer.wrap(matrixOf(me)), IntBuffer.wrap(everywhere), 1, matrix, product),
            world.iScan(IntBuffer.wrap(matrixOf(me)), IntBuffer.wrap(prefix), 1, matrix, product),
            world.iExScan(IntBuffer.wrap(matrixOf(me)), IntBuffer.wrap(ex), 1, matrix, product),
            world.iReduceScatterBlock(blocks, scattered, 1, matrix, product),
            world.iAllReduce(pairs, maxloc, 1, MPI.INT2, MPI.MAXLOC),
        };
        // point-to-point traffic while they are outstanding does not disturb them
        int[] token = {me};
        int left = Neighbours.left(world);
        world.sendRecvReplace(token, 1, MPI.INT, Neighbours.right(world), 9, left, 9);
        Expect.equal("ring token beside non-blocking collectives", left, token[0]);
        mpi.Request.waitAll(started);
        if (me == root) {
            expectMatrix("user-op iReduce", productUpTo(size - 1), reduced, 0);
        }
        expectMatrix("user-op iAllReduce", productUpTo(size - 1), everywhere, 0);
        expectMatrix("user-op iScan", productUpTo(me), prefix, 0);
        expectMatrix("user-op iExScan", me == 0 ? untouched : productUpTo(me - 1), ex, 0);
        int[] expected = blockProduct(size, me);
        for (int k = 0; k < 4; k++) {
            Expect.equal("user-op iReduceScatterBlock[" + k + "]", expected[k], scattered.getInt(4 * k));
        }
        Expect.equal("iAllReduce MAXLOC value", (size - 1) / 2, maxloc.get(0));
        Expect.equal("iAllReduce MAXLOC index", (size - 1) / 2, maxloc.get(1));
    }
}
