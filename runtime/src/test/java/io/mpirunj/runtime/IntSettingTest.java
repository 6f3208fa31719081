package io.mpirunj.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.mpirunj.runtime.bootstrap.JobEnvironment;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Whole-number settings (RuntimeConfig's and TcpConfig's): the default when unset, one clear line when not a number. */
class IntSettingTest {

    @Test
    void unsetIsTheDefaultAndANumberIsReadTrimmed() {
        assertEquals(7, RuntimeConfig.intSetting("x", null, 7, "an integer"));
        assertEquals(-3, RuntimeConfig.intSetting("x", " -3 ", 7, "an integer"));
    }

    @Test
    void aValueThatIsNotANumberNamesTheSetting() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RuntimeConfig.intSetting("mpirunj.tcp.ioThreads", "two", 0, "an integer"));
        assertEquals("mpirunj.tcp.ioThreads=two (expected: an integer)", e.getMessage());
        IllegalArgumentException env = assertThrows(IllegalArgumentException.class,
                () -> RuntimeConfig.from(Map.of(JobEnvironment.EAGER_LIMIT, "64k")));
        assertEquals(JobEnvironment.EAGER_LIMIT + "=64k (expected: a non-negative integer)", env.getMessage());
    }

    @Test
    void aNegativeByteCountIsRefusedNamingWhereItCameFrom() {
        IllegalArgumentException env = assertThrows(IllegalArgumentException.class,
                () -> RuntimeConfig.from(Map.of(JobEnvironment.EAGER_CREDIT_BYTES, "-1")));
        assertEquals(JobEnvironment.EAGER_CREDIT_BYTES + "=-1 (expected: a non-negative integer)", env.getMessage());
        String prop = RuntimeConfig.EAGER_LIMIT_PROP;
        System.setProperty(prop, "-64");
        try {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> RuntimeConfig.from(Map.of(JobEnvironment.EAGER_LIMIT, "5")));
            assertEquals(prop + "=-64 (expected: a non-negative integer)", e.getMessage());
        } finally {
            System.clearProperty(prop);
        }
    }
}
