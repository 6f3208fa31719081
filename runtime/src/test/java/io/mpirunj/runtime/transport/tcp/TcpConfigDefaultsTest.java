package io.mpirunj.runtime.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mpirunj.runtime.bootstrap.JobEnvironment;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Waiter-driven progress whether or not the host's ranks fit its cores. */
class TcpConfigDefaultsTest {
    @Test
    void ranksDriveTheirOwnIoWhetherOrNotTheyFitTheCores() {
        int cores = Runtime.getRuntime().availableProcessors();
        assertEquals(0, TcpConfig.from(Map.of(JobEnvironment.LOCAL_SIZE, "1")).ioThreads());
        assertEquals(0, TcpConfig.from(Map.of(JobEnvironment.LOCAL_SIZE, String.valueOf(4 * cores + 1))).ioThreads());
        assertEquals(0, TcpConfig.from(Map.of()).ioThreads()); // unknown
    }
}
