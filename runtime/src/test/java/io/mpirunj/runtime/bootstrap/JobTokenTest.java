package io.mpirunj.runtime.bootstrap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JobTokenTest {
    @Test
    void randomTokensAreHexAndDistinct() {
        String a = JobToken.random();
        String b = JobToken.random();
        assertEquals(2 * JobToken.BYTES, a.length());
        assertTrue(a.matches("[0-9a-f]+"), a);
        assertNotEquals(a, b);
        assertEquals(JobToken.BYTES, JobToken.decode(a).length);
    }

    @Test
    void decodesAndCompares() {
        assertArrayEquals(new byte[] {0x0a, (byte) 0xff}, JobToken.decode("0aFF"));
        assertTrue(JobToken.matches(JobToken.decode("0aff"), new byte[] {0x0a, (byte) 0xff}));
        assertFalse(JobToken.matches(JobToken.decode("0aff"), new byte[] {0x0a}));
    }

    @Test
    void rejectsMalformedTokensWithoutPrintingThem() {
        IllegalArgumentException odd = assertThrows(IllegalArgumentException.class, () -> JobToken.decode("abc"));
        assertTrue(odd.getMessage().startsWith(JobEnvironment.JOB_TOKEN + " has 3 characters"), odd.getMessage());
        IllegalArgumentException notHex = assertThrows(IllegalArgumentException.class, () -> JobToken.decode("zzzz"));
        assertFalse(notHex.getMessage().contains("zzzz"));
        assertThrows(IllegalArgumentException.class, () -> JobToken.decode(""));
        assertThrows(IllegalArgumentException.class, () -> JobToken.decode(null));
    }
}
