package io.mpirunj.mpicompat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import io.mpirunj.testing.LocalCluster;
import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.util.concurrent.TimeUnit;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Request;
import mpi.Status;
import mpi.UserFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

/** Where this package is safer than Open MPI's bindings, and how it reports bad input. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MpiSemanticsTest {
    private static final String[] NO_ARGS = {};

    private static void run(int np, LocalCluster.RankBody body) {
        run(np, null, body);
    }

    /**
     * Runs {@code body} between MPI.Init and MPI.Finalize on {@code np} ranks as threads, with {@code registry}'s
     * collectives (null: the default).
     */
    private static void run(int np, CollectiveRegistry registry, LocalCluster.RankBody body) {
        LocalCluster.run(np, RuntimeConfig.defaults(), registry, LocalCluster.DEFAULT_TIMEOUT, world -> {
            MPI.Init(NO_ARGS);
            body.run(world);
            MPI.Finalize();
        });
    }

    /** Asserts {@code call} throws an MPIException with exactly {@code message}; returns it. */
    private static MPIException failsWith(String message, Executable call) {
        MPIException e = assertThrows(MPIException.class, call);
        assertEquals(message, e.getMessage());
        return e;
    }

    /** Asserts {@code call} throws an MPIException of {@code errorClass} with exactly {@code message}. */
    private static void failsWith(int errorClass, String message, Executable call) {
        assertEquals(errorClass, failsWith(message, call).getErrorClass());
    }

    /** Asserts {@code call} throws an MPIException whose message starts with {@code prefix}; returns it. */
    private static MPIException failsStartingWith(String prefix, Executable call) {
        MPIException e = assertThrows(MPIException.class, call);
        assertTrue(e.getMessage().startsWith(prefix), e.getMessage());
        return e;
    }

    /** Asserts {@code call} throws an MPIException of {@code errorClass} whose message starts with {@code prefix}. */
    private static void failsStartingWith(int errorClass, String prefix, Executable call) {
        assertEquals(errorClass, failsStartingWith(prefix, call).getErrorClass());
    }

    @Test
    void anOverrunOrAMisfitDatatypeIsAnExceptionNamingTheCallNotACrash() {
        run(2, world -> {
            failsWith(MPI.ERR_BUFFER, "send: the send buffer holds 3 elements of INT but the call needs elements "
                    + "[0, 4)",
                    () -> MPI.COMM_WORLD.send(new int[3], 4, MPI.INT, 1, 0));
            failsStartingWith("recv: the receive buffer holds 2 elements",
                    () -> MPI.COMM_WORLD.recv(MPI.newIntBuffer(2), 5, MPI.INT, 1, 0));
            failsStartingWith("iRecv: ",
                    () -> MPI.COMM_WORLD.iRecv(IntBuffer.wrap(new int[1]), 2, MPI.INT, 1, 0));
            failsStartingWith("iBcast: ",
                    () -> MPI.COMM_WORLD.iBcast(MPI.newDoubleBuffer(1), 3, MPI.DOUBLE, 0));
            // arrays of the datatype's own type take a short way; its overruns are reported the same
            failsWith("recv: the receive buffer holds 2 elements of DOUBLE but the call needs elements [0, 3)",
                    () -> MPI.COMM_WORLD.recv(new double[2], 3, MPI.DOUBLE, 1, 0));
            failsWith("bcast: the buffer holds 4 elements of BYTE but the call needs 5",
                    () -> MPI.COMM_WORLD.bcast(new byte[4], 5, MPI.BYTE, 0));
            failsStartingWith("send: ",
                    () -> MPI.COMM_WORLD.send(new long[2], -1, MPI.LONG, 1, 0));
            failsWith("gather: the buffer holds 1 elements of INT but the call needs 2",
                    () -> MPI.COMM_WORLD.gather(new int[1], 1, MPI.INT, new int[1], 1, MPI.INT, world.rank()));
            // a datatype that does not fit the array
            failsWith(MPI.ERR_TYPE, "send: datatype INT does not fit the send buffer, a double[] (expected a int[] "
                    + "or a byte buffer)",
                    () -> MPI.COMM_WORLD.send(new double[2], 2, MPI.INT, 0, 0));
            failsStartingWith("allReduce: MAXLOC needs a pair datatype",
                    () -> MPI.COMM_WORLD.allReduce(new int[2], new int[2], 2, MPI.INT, MPI.MAXLOC));
        });
    }

    /**
     * Open MPI's error classes for a bad rank, tag, root or count (a ported program that catches MPIException under
     * ERRORS_RETURN branches on them; they were all ERR_OTHER, and a negative count ERR_BUFFER).
     */
    @Test
    void aBadRankTagRootOrCountHasOpenMpisErrorClass() {
        run(2, world -> {
            failsWith(MPI.ERR_RANK, "send: dest 99 (expected: 0 <= dest < 2 or PROC_NULL)",
                    () -> MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 99, 0));
            failsWith(MPI.ERR_RANK, "iRecv: source -7 (expected: 0 <= source < 2, ANY_SOURCE or PROC_NULL)",
                    () -> MPI.COMM_WORLD.iRecv(new int[1], 1, MPI.INT, -7, 0));
            failsWith(MPI.ERR_RANK, "sendRecv: dest 2 (expected: 0 <= dest < 2 or PROC_NULL)",
                    () -> MPI.COMM_WORLD.sendRecv(new int[1], 1, MPI.INT, 2, 0, new int[1], 1, MPI.INT, 0, 0));
            failsWith(MPI.ERR_TAG, "send: tag -5 (expected: >= 0)",
                    () -> MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 1 - world.rank(), -5));
            failsWith(MPI.ERR_TAG, "probe: tag -5 (expected: >= 0 or ANY_TAG)",
                    () -> MPI.COMM_WORLD.probe(MPI.ANY_SOURCE, -5));
            failsWith(MPI.ERR_ROOT, "bcast: root 99 (expected: 0 <= root < 2)",
                    () -> MPI.COMM_WORLD.bcast(new int[1], 1, MPI.INT, 99));
            failsWith(MPI.ERR_ROOT, "iBcast: root -1 (expected: 0 <= root < 2)",
                    () -> MPI.COMM_WORLD.iBcast(MPI.newIntBuffer(1), 1, MPI.INT, -1));
            failsWith(MPI.ERR_ROOT, "gather: root 2 (expected: 0 <= root < 2)",
                    () -> MPI.COMM_WORLD.gather(new int[1], 1, MPI.INT, new int[2], 1, MPI.INT, 2));
            failsWith(MPI.ERR_ROOT, "reduce: root 5 (expected: 0 <= root < 2)",
                    () -> MPI.COMM_WORLD.reduce(new int[1], new int[1], 1, MPI.INT, MPI.SUM, 5));
            failsWith(MPI.ERR_RANK, "sendInit: dest 5 (expected: 0 <= dest < 2 or PROC_NULL)",
                    () -> MPI.COMM_WORLD.sendInit(MPI.newIntBuffer(1), 1, MPI.INT, 5, 0)); // at once, not at start
            failsWith(MPI.ERR_TAG, "recvInit: tag -7 (expected: >= 0 or ANY_TAG)",
                    () -> MPI.COMM_WORLD.recvInit(MPI.newIntBuffer(1), 1, MPI.INT, 0, -7));
            failsWith(MPI.ERR_COUNT, "send: count -1 (expected: >= 0)",
                    () -> MPI.COMM_WORLD.send(new long[2], -1, MPI.LONG, 1 - world.rank(), 0));
            failsWith(MPI.ERR_COUNT, "recv: count -3 (expected: >= 0)",
                    () -> MPI.COMM_WORLD.recv(MPI.newCharBuffer(2), -3, MPI.CHAR, 1 - world.rank(), 0));
        });
    }

    /** A null buffer of no elements is a message only its envelope carries (Open MPI's bindings allow it). */
    @Test
    void aNullBufferOfNoElementsSendsAndReceivesAnEnvelope() {
        run(2, world -> {
            if (world.rank() == 0) {
                MPI.COMM_WORLD.send(null, 0, MPI.INT, 1, 99);
                MPI.COMM_WORLD.iSend(null, 0, MPI.DOUBLE, 1, 98).waitFor();
            } else {
                Status s = MPI.COMM_WORLD.recv(null, 0, MPI.INT, 0, MPI.ANY_TAG);
                assertEquals(99, s.getTag());
                assertEquals(0, s.getCount(MPI.INT));
                assertEquals(98, MPI.COMM_WORLD.iRecv(null, 0, MPI.DOUBLE, 0, MPI.ANY_TAG).waitStatus().getTag());
            }
            failsWith(MPI.ERR_BUFFER, "send: the send buffer is null",
                    () -> MPI.COMM_WORLD.send(null, 1, MPI.INT, 1 - world.rank(), 0));
        });
    }

    /**
     * MPI_REQUEST_GET_STATUS says the operation is complete, so the data are in place: a receive into a direct buffer
     * of another type than bytes is staged, and getStatus returned before the staged data were copied in (they came
     * with the wait). The request stays active; its wait returns the same status and copies nothing again.
     */
    @Test
    void getStatusOfACompletedReceiveHasItsDataInPlace() {
        run(2, world -> {
            int peer = 1 - world.rank();
            java.nio.DoubleBuffer d = MPI.newDoubleBuffer(2);
            java.nio.CharBuffer c = MPI.newCharBuffer(3);
            Request rd = MPI.COMM_WORLD.iRecv(d, 2, MPI.DOUBLE, peer, 3);
            Request rc = MPI.COMM_WORLD.iRecv(c, 3, MPI.CHAR, peer, 4);
            MPI.COMM_WORLD.send(new double[] {1.5, 2.5}, 2, MPI.DOUBLE, peer, 3);
            MPI.COMM_WORLD.send(new char[] {'a', 'b', 'c'}, 3, MPI.CHAR, peer, 4);
            Status sd = rd.getStatus();
            while (sd == null) {
                Thread.onSpinWait();
                sd = rd.getStatus();
            }
            assertEquals(1.5, d.get(0));
            assertEquals(2.5, d.get(1));
            Status sc = rc.getStatus();
            while (sc == null) {
                Thread.onSpinWait();
                sc = rc.getStatus();
            }
            assertEquals("abc", "" + c.get(0) + c.get(1) + c.get(2));
            assertFalse(rd.isNull(), "getStatus leaves the request active");
            d.put(0, -1); // the program's own write after getStatus: the wait must not copy the message over it
            assertEquals(3, rd.waitStatus().getTag());
            assertEquals(-1, d.get(0));
            assertTrue(rd.isNull());
            assertEquals(3, rc.waitStatus().getCount(MPI.CHAR));
        });
    }

    /**
     * A user function that overrides only the byte-buffer form serves array data too, as Open MPI's bindings call
     * that form for every type but BOOLEAN (it failed: "call(Object, Object, int, Datatype) is not implemented").
     */
    @Test
    void aUserFunctionOfByteBuffersAloneServesArraysToo() {
        Op maxAbs = new Op(new UserFunction() {
            @Override
            public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype type) {
                java.nio.DoubleBuffer a = in.asDoubleBuffer();
                java.nio.DoubleBuffer b = inOut.asDoubleBuffer();
                for (int i = 0; i < count; i++) {
                    b.put(i, Math.max(Math.abs(a.get(i)), Math.abs(b.get(i))));
                }
            }
        }, true);
        run(3, world -> {
            double[] result = new double[2];
            MPI.COMM_WORLD.allReduce(new double[] {-(world.rank() + 1), world.rank()}, result, 2, MPI.DOUBLE, maxAbs);
            assertArrayEquals(new double[] {3, 2}, result);
            java.nio.DoubleBuffer direct = MPI.newDoubleBuffer(2);
            direct.put(0, -(world.rank() + 1)).put(1, world.rank());
            MPI.COMM_WORLD.allReduce(direct, 2, MPI.DOUBLE, maxAbs);
            assertEquals(3, direct.get(0));
            assertEquals(2, direct.get(1));
        });
    }

    @Test
    void aTooLongMessageIsATruncationError() {
        run(2, world -> {
            if (world.rank() == 0) {
                MPI.COMM_WORLD.send(new int[4], 4, MPI.INT, 1, 3);
            } else {
                failsStartingWith(MPI.ERR_TRUNCATE, "recv: ",
                        () -> MPI.COMM_WORLD.recv(new int[2], 2, MPI.INT, 0, 3));
            }
        });
    }

    @Test
    void dataStartAtIndexZeroAndPositionAndLimitAreLeftAlone() {
        run(2, world -> {
            ByteBuffer b = ByteBuffer.allocateDirect(12);
            if (world.rank() == 0) {
                b.put(0, (byte) 9).put(11, (byte) 10);
            }
            b.position(5).limit(7);
            if (world.rank() == 0) {
                MPI.COMM_WORLD.send(b, 12, MPI.BYTE, 1, 0);
            } else {
                Status s = MPI.COMM_WORLD.recv(b, 12, MPI.BYTE, 0, 0);
                assertEquals(12, s.getCount(MPI.BYTE));
                assertEquals(9, b.get(0));
                assertEquals(10, b.duplicate().clear().get(11));
            }
            assertEquals(5, b.position());
            assertEquals(7, b.limit());
        });
    }

    @Test
    void procNullCompletesAtOnce() {
        run(1, world -> {
            MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, MPI.PROC_NULL, 0);
            Status s = MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, MPI.PROC_NULL, 0);
            assertEquals(MPI.PROC_NULL, s.getSource());
            assertEquals(0, s.getCount(MPI.INT));
            Request r = MPI.COMM_WORLD.iRecv(new int[1], 1, MPI.INT, MPI.PROC_NULL, 0);
            assertTrue(r.test());
        });
    }

    @Test
    void callsBeforeInitSaySo() {
        failsWith("getRank: MPI is not initialized (call MPI.Init first)", () -> MPI.COMM_WORLD.getRank());
    }

    @Test
    void unsupportedCallsSaySo() {
        failsStartingWith(MPI.ERR_UNSUPPORTED_OPERATION, "Datatype.createVector is not supported",
                () -> Datatype.createVector(2, 1, 2, MPI.INT));
    }

    @Test
    void mpiExceptionIsUncheckedSoCodeForEitherFlavourCompiles() {
        assertTrue(RuntimeException.class.isAssignableFrom(MPIException.class));
    }

    @Test
    void collectivesRunOnThePluggableAlgorithmsSoForcingOneApplies() {
        CountingBcast.CALLS.set(0);
        run(4, CountingBcast.registryForcingIt(), world -> {
            int rank = world.rank();
            int[] v = rank == 2 ? new int[] {7, 8} : new int[2];
            MPI.COMM_WORLD.bcast(v, 2, MPI.INT, 2);
            assertArrayEquals(new int[] {7, 8}, v);
            IntBuffer d = MPI.newIntBuffer(1);
            d.put(0, rank == 0 ? 5 : 0);
            MPI.COMM_WORLD.iBcast(d, 1, MPI.INT, 0).waitFor();
            assertEquals(5, d.get(0));
        });
        assertEquals(8, CountingBcast.CALLS.get(), "2 bcasts on each of 4 ranks went through the forced algorithm");
    }

    @Test
    void heapBuffersWorkInNonBlockingCalls() {
        run(2, world -> {
            int[] back = new int[3];
            int peer = 1 - world.rank();
            Request r = MPI.COMM_WORLD.iRecv(IntBuffer.wrap(back), 3, MPI.INT, peer, 1);
            Request s = MPI.COMM_WORLD.iSend(IntBuffer.wrap(new int[] {world.rank(), 2, 3}), 3, MPI.INT, peer, 1);
            Request.waitAll(new Request[] {r, s});
            assertArrayEquals(new int[] {peer, 2, 3}, back);
            assertFalse(MPI.isFinalized());
        });
    }
}
