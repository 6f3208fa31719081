package io.mpirunj.mpicompat.programs;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.UserFunction;

/**
 * User-defined operations (a non-commutative 2x2 matrix product, whose result shows the rank order),
 * MINLOC/MAXLOC on pairs, and reduceLocal.
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

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        run(args);
        MPI.Finalize();
    }

    /** The program between Init and Finalize, so that {@link AllPrograms} can run every program in one job. */
    public static void run(String[] args) throws MPIException {
        Intracomm world = MPI.COMM_WORLD;
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
    }
}
