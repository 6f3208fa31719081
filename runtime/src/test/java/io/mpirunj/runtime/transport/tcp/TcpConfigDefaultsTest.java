package io.mpirunj.runtime.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mpirunj.runtime.bootstrap.JobEnvironment;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Waiter-driven progress where the host's ranks fit its cores; event-loop threads where they outnumber them. */
class TcpConfigDefaultsTest {
    @Test
    void ranksThatFitTheCoresDriveTheirOwnIo() {
        assertEquals(0, TcpConfig.defaultIoThreads(Map.of(JobEnvironment.LOCAL_SIZE, "2"), 2));
        assertEquals(0, TcpConfig.defaultIoThreads(Map.of(), 2)); // unknown
    }

    @Test
    void oversubscribedRanksGetEventLoopThreads() {
        assertEquals(TcpConfig.IO_THREADS_OVERSUBSCRIBED,
                TcpConfig.defaultIoThreads(Map.of(JobEnvironment.LOCAL_SIZE, "8"), 2));
        assertEquals(TcpConfig.IO_THREADS_OVERSUBSCRIBED,
                TcpConfig.defaultIoThreads(Map.of(JobEnvironment.LOCAL_SIZE, " 16 "), 4));
    }
}
