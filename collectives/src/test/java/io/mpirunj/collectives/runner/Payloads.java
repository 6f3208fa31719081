package io.mpirunj.collectives.runner;

import static org.junit.jupiter.api.Assertions.fail;

import io.mpirunj.Buffer;
import io.mpirunj.ElementType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;

/** Test buffers of several kinds, filled and checked through their bytes so one check fits all. */
enum Payloads {
    BYTES, INTS, DIRECT_BYTES, DIRECT_LONGS_BIG_ENDIAN;

    /** A buffer of this kind with {@code count} elements (zeroed). */
    Buffer allocate(int count) {
        switch (this) {
            case BYTES: return Buffer.of(new byte[count]);
            case INTS: return Buffer.of(new int[count]);
            case DIRECT_BYTES: return Buffer.of(ByteBuffer.allocateDirect(count));
            default: return Buffer.of(ByteBuffer.allocateDirect(count * 8).order(ByteOrder.BIG_ENDIAN), ElementType.LONG);
        }
    }

    /** The wire bytes of the root's content for a given seed. */
    static byte[] pattern(int bytes, long seed) {
        byte[] b = new byte[bytes];
        new SplittableRandom(seed).nextBytes(b);
        return b;
    }

    static void fill(Buffer buf, byte[] content) {
        buf.copyIn(0, ByteBuffer.wrap(content));
    }

    static byte[] content(Buffer buf) {
        ByteBuffer out = ByteBuffer.allocate(buf.byteLength());
        buf.copyOut(0, out);
        return out.array();
    }

    static void check(Buffer buf, byte[] expected, String what) {
        byte[] got = content(buf);
        if (!Arrays.equals(got, expected)) {
            int i = Arrays.mismatch(got, expected);
            fail(what + ": " + buf + " differs from the root's data at byte " + i + " of " + expected.length);
        }
    }
}
