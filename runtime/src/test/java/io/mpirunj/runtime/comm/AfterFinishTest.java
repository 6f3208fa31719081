package io.mpirunj.runtime.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.Mpi;
import io.mpirunj.MpiException;
import io.mpirunj.Op;
import io.mpirunj.testing.LocalCluster;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Calls after {@code Mpi.finish} fail at once, naming the call, with the caller's own stack trace: a collective
 * named "rank 1 has finished" with the stack of {@code Mpi.finish} (the engine's stored close), and
 * {@code Mpi.init} after it returned the closed world (a new user's trial).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AfterFinishTest {
    @Test
    void callsAfterFinishNameTheCallAndTheirOwnLine() {
        LocalCluster.run(2, world -> {
            Mpi.finish();
            Mpi.finish(); // a second one is a no-op, as before
            int me = world.rank();
            MpiException init = assertThrows(MpiException.class, () -> Mpi.init(new String[0]));
            assertEquals("Mpi.init after Mpi.finish: a rank joins the job once (as MPI_Init may not follow "
                    + "MPI_Finalize)", init.getMessage());
            Buffer one = Buffer.of(new int[] {1});
            MpiException blocking = assertThrows(MpiException.class,
                    () -> world.allreduce(one, Buffer.of(new int[1]), Op.SUM));
            assertEquals("rank " + me + ": allreduce after Mpi.finish (the rank has left the job)",
                    blocking.getMessage());
            assertTrue(thrownHere(blocking), "the trace starts at the call, not at Mpi.finish");
            MpiException nonBlocking = assertThrows(MpiException.class, () -> world.ibcast(one, 0));
            assertEquals("rank " + me + ": ibcast after Mpi.finish (the rank has left the job)",
                    nonBlocking.getMessage());
            MpiException send = assertThrows(MpiException.class, () -> world.send(one, 1 - me, 7));
            assertTrue(send.getMessage().startsWith("rank " + me + " has finished; cannot start "),
                    send.getMessage());
            assertTrue(thrownHere(send), "the trace starts at the call, not at Mpi.finish");
        });
    }

    /**
     * {@code try (Comm world = Mpi.init(args)) { ...; Mpi.finish(); }}, Java's idiom for an AutoCloseable: closing the
     * world after finish does nothing (it threw, failing a job that had succeeded); before finish it still says to
     * call it.
     */
    @Test
    void closingTheWorldAfterFinishDoesNothing() {
        LocalCluster.run(2, world -> {
            MpiException early = assertThrows(MpiException.class, world::close);
            assertEquals("world.close() before Mpi.finish(): the world communicator is left with Mpi.finish() "
                    + "(the last statement of a try (Comm world = Mpi.init(args)) block)", early.getMessage());
            Mpi.finish();
            world.close();
        });
    }

    /** Whether {@code e} was made under this test's call, not in {@code Mpi.finish}. */
    private static boolean thrownHere(Throwable e) {
        boolean here = false;
        for (StackTraceElement f : e.getStackTrace()) {
            here |= f.getClassName().startsWith(AfterFinishTest.class.getName());
            if (f.getMethodName().equals("finish")) {
                return false;
            }
        }
        return here;
    }
}
