package io.mpirunj.runtime.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.TruncationException;
import io.mpirunj.testing.LocalCluster;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A failed operation throws from the call that waited for it, with that caller's stack: the failure is found where
 * the message arrives (with ranks as threads, in the sending rank's thread, whose trace named the sender's send; as
 * processes, in Netty's frames).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FailureTraceTest {
    @Test
    void aTruncatedReceiveThrowsWithTheReceiversStack() {
        LocalCluster.run(2, world -> {
            if (world.rank() == 0) {
                world.send(Buffer.of(new int[10]), 1, 5);
                return;
            }
            TruncationException e = assertThrows(TruncationException.class,
                    () -> world.recv(Buffer.of(new int[5]), 0, 5));
            assertEquals("message of 40 bytes from rank 0 (tag 5) truncated into a buffer of 20 bytes on rank 1",
                    e.getMessage());
            StackTraceElement[] trace = e.getStackTrace();
            assertEquals("io.mpirunj.runtime.comm.CommImpl.recv",
                    trace[0].getClassName() + "." + trace[0].getMethodName(), Arrays.toString(trace));
            assertTrue(Arrays.stream(trace).anyMatch(f -> f.getClassName().startsWith(getClass().getName())),
                    Arrays.toString(trace));
            assertFalse(Arrays.stream(trace).anyMatch(f -> f.getMethodName().equals("isend")),
                    "the sender's path: " + Arrays.toString(trace));
        });
    }
}
