package ompiapp;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import mpi.Datatype;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;
import mpi.UserFunction;

/**
 * A program written for Open MPI's Java bindings and compiled against a stub of their published
 * signatures (checked MPIException included). It must link and run, unchanged, against mpirun-j's
 * mpi jar. It checks every result and exits through an exception on the first wrong one.
 */
public class OmpiApp {
    static void check(String what, long expected, long actual) {
        if (expected != actual) {
            throw new IllegalStateException(what + ": expected " + expected + " but got " + actual);
        }
    }

    /**
     * Composition of affine maps x -> a x + b, held as (a, b): inOut = in o inOut. Associative but not
     * commutative, so a result in the wrong rank order shows.
     */
    static final class Compose extends UserFunction {
        @Override
        public void call(Object in, Object inOut, int count, Datatype type) throws MPIException {
            long[] f = (long[]) in;
            long[] g = (long[]) inOut;
            for (int i = 0; i < count; i++) {
                long a = f[2 * i] * g[2 * i];
                long b = f[2 * i] * g[2 * i + 1] + f[2 * i + 1];
                g[2 * i] = a;
                g[2 * i + 1] = b;
            }
        }
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        double start = MPI.wtime();
        Intracomm world = MPI.COMM_WORLD;
        int me = world.getRank();
        int size = world.getSize();
        int right = (me + 1) % size;
        int left = (me + size - 1) % size;

        int[] token = {me};
        Status s = world.sendRecv(new int[] {me * 2}, 1, MPI.INT, right, 1, token, 1, MPI.INT, left, 1);
        check("sendRecv", left * 2, token[0]);
        check("sendRecv source", left, s.getSource());

        IntBuffer in = MPI.newIntBuffer(2);
        IntBuffer out = MPI.newIntBuffer(2);
        out.put(0, me).put(1, -me);
        Request[] rq = {world.iRecv(in, 2, MPI.INT, left, 2), world.iSend(out, 2, MPI.INT, right, 2)};
        Request.waitAll(rq);
        check("iRecv", -left, in.get(1));

        Prequest p = world.sendInit(out, 2, MPI.INT, right, 3);
        Prequest q = world.recvInit(in, 2, MPI.INT, left, 3);
        Prequest.startAll(new Prequest[] {q, p});
        q.waitFor();
        Status ps = p.waitStatus();
        check("persistent", left, in.get(0));
        if (ps == null) {
            throw new IllegalStateException("waitStatus returned null");
        }

        DoubleBuffer d = MPI.newDoubleBuffer(1);
        d.put(0, me == 0 ? 6.5 : 0);
        world.iBcast(d, 1, MPI.DOUBLE, 0).waitFor();
        if (d.get(0) != 6.5) {
            throw new IllegalStateException("iBcast: " + d.get(0));
        }

        int[] gathered = new int[size];
        world.allGather(new int[] {me * me}, 1, MPI.INT, gathered, 1, MPI.INT);
        for (int r = 0; r < size; r++) {
            check("allGather " + r, r * r, gathered[r]);
        }
        int[] sum = new int[1];
        world.allReduce(new int[] {me + 1}, sum, 1, MPI.INT, MPI.SUM);
        check("allReduce", size * (size + 1) / 2, sum[0]);

        Op compose = new Op(new Compose(), false);
        Datatype affine = Datatype.createContiguous(2, MPI.LONG);
        affine.commit();
        long[] composed = new long[2];
        world.reduce(new long[] {2, me}, composed, 1, affine, compose, 0);
        if (me == 0) {
            long a = 2; // f0 o f1 o ... o f(n-1), f_r(x) = 2x + r
            long b = 0;
            for (int r = 1; r < size; r++) {
                b = a * r + b;
                a = a * 2;
            }
            check("user op a", a, composed[0]);
            check("user op b", b, composed[1]);
        }

        Datatype pair = Datatype.createContiguous(2, MPI.INT);
        pair.commit();
        int[] a2a = new int[2 * size];
        int[] a2aOut = new int[2 * size];
        for (int j = 0; j < size; j++) {
            a2a[2 * j] = me;
            a2a[2 * j + 1] = j;
        }
        world.allToAll(a2a, 1, pair, a2aOut, 1, pair);
        for (int j = 0; j < size; j++) {
            check("allToAll pair from " + j, j, a2aOut[2 * j]);
            check("allToAll pair to me", me, a2aOut[2 * j + 1]);
        }

        Intracomm half = world.split(me % 2, me);
        Group g = half.getGroup();
        check("split group", (size + 1 - me % 2) / 2, g.getSize());
        int[] scan = new int[1];
        half.scan(new int[] {1}, scan, 1, MPI.INT, MPI.SUM);
        check("scan in the split", me / 2 + 1, scan[0]);
        half.free();

        ByteBuffer bytes = MPI.newByteBuffer(4);
        try {
            world.send(bytes, 8, MPI.BYTE, right, 9); // an overrun: must be an MPIException
            throw new IllegalStateException("an overrun went unnoticed");
        } catch (MPIException e) {
            if (!e.getMessage().contains("send")) {
                throw new IllegalStateException("the overrun's message does not name the call: " + e.getMessage());
            }
        }
        world.barrier();
        if (MPI.wtime() < start) {
            throw new IllegalStateException("wtime went backwards");
        }
        System.out.println("OmpiApp rank " + me + " of " + size + " ok");
        MPI.Finalize();
    }
}
