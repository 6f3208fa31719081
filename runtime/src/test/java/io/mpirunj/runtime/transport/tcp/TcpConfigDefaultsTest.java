package io.mpirunj.runtime.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.mpirunj.runtime.bootstrap.JobEnvironment;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Waiter-driven progress whether or not the host's ranks fit its cores; tunables refused where the transport is built. */
class TcpConfigDefaultsTest {
    @Test
    void ranksDriveTheirOwnIoWhetherOrNotTheyFitTheCores() {
        int cores = Runtime.getRuntime().availableProcessors();
        assertEquals(0, TcpConfig.from(Map.of(JobEnvironment.LOCAL_SIZE, "1")).ioThreads());
        assertEquals(0, TcpConfig.from(Map.of(JobEnvironment.LOCAL_SIZE, String.valueOf(4 * cores + 1))).ioThreads());
        assertEquals(0, TcpConfig.from(Map.of()).ioThreads()); // unknown
    }

    /**
     * The process-wide tunables sit in static fields of the classes that use them (a chunk size read on the
     * I/O path, for one): a bad value must fail here, on the thread building the transport, not in a class
     * initialiser on an I/O thread, where the frame being sent would be lost.
     */
    @ParameterizedTest
    @ValueSource(strings = {TcpConfig.READ_MAX_BYTES_PROP, TcpConfig.WRITE_CHUNK_BYTES_PROP,
            TcpConfig.HELPER_TICK_MICROS_PROP, TcpConfig.HELPER_MAX_TICK_MICROS_PROP, TcpConfig.MAX_EAGER_BYTES_PROP})
    void aBadProcessWideTunableIsRefusedWhenTheConfigIsRead(String prop) {
        System.setProperty(prop, "lots");
        try {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TcpConfig.from(Map.of()));
            assertEquals(prop + "=lots", e.getMessage().split(" \\(expected: ")[0]);
            System.setProperty(prop, "0");
            assertThrows(IllegalArgumentException.class, () -> TcpConfig.from(Map.of()), prop + "=0");
        } finally {
            System.clearProperty(prop);
        }
    }
}
