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

    @Test
    void aTunablePropertyIsTheDefaultUnsetAndOtherwiseANumberInItsRange() {
        String prop = "mpirunj.test.tunable";
        System.clearProperty(prop);
        assertEquals(4096, RuntimeConfig.intProperty(prop, 4096, 1));
        try {
            System.setProperty(prop, " 8192 ");
            assertEquals(8192, RuntimeConfig.intProperty(prop, 4096, 1));
            assertEquals(8192L, RuntimeConfig.longProperty(prop, 1, 0));
            for (String bad : new String[] {"abc", "0", "1.5", "4294967296", ""}) {
                System.setProperty(prop, bad);
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> RuntimeConfig.intProperty(prop, 4096, 1), bad);
                assertEquals(prop + "=" + bad + " (expected: a whole number from 1 to 2147483647)", e.getMessage());
            }
            System.setProperty(prop, "-1");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> RuntimeConfig.longProperty(prop, 5, 0));
            assertEquals(prop + "=-1 (expected: a whole number from 0)", e.getMessage());
        } finally {
            System.clearProperty(prop);
        }
    }
}
