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
import mpi.Request;
import mpi.Status;
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
