package io.mpirunj;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class BufferTest {
    /** The wire bytes of a typed buffer: each element little-endian. */
    private static byte[] wire(Buffer b) {
        ByteBuffer out = ByteBuffer.allocate(b.byteLength());
        b.copyOut(0, out);
        return out.array();
    }

    private static Buffer filled(ElementType t, int n, String kind, long seed) {
        Random r = new Random(seed);
        Buffer b;
        switch (kind) {
            case "array": b = Buffer.allocate(t, n + 3).slice(2, n); break;
            case "le": b = Buffer.of(ByteBuffer.allocateDirect(n * t.bytes()).order(ByteOrder.LITTLE_ENDIAN), t); break;
            default: b = Buffer.of(ByteBuffer.allocate(n * t.bytes()), t); break; // big-endian heap
        }
        byte[] bytes = new byte[n * t.bytes()];
        r.nextBytes(bytes);
        b.copyIn(0, ByteBuffer.wrap(bytes));
        return b;
    }

    @ParameterizedTest
    @EnumSource(ElementType.class)
    void chunkedCopiesAtEveryOffsetMatchWholeCopies(ElementType t) {
        for (String kind : new String[] {"array", "le", "be"}) {
            Buffer src = filled(t, 37, kind, 1);
            byte[] whole = wire(src);
            for (int chunk = 1; chunk <= 9; chunk++) {
                // Out in chunks of every size, then back in chunks into a fresh buffer of each kind.
                ByteBuffer out = ByteBuffer.allocate(whole.length);
                for (int at = 0; at < whole.length; at += chunk) {
                    src.copyOut(at, out.slice().limit(Math.min(chunk, whole.length - at)));
                    out.position(Math.min(at + chunk, whole.length));
                }
                assertArrayEquals(whole, out.array(), kind + " out, chunk " + chunk);
                for (String into : new String[] {"array", "le", "be"}) {
                    Buffer dst = filled(t, 37, into, 2);
                    ByteBuffer in = ByteBuffer.wrap(whole);
                    for (int at = 0; at < whole.length; at += chunk) {
                        dst.copyIn(at, in.slice().limit(Math.min(chunk, whole.length - at)));
                        in.position(Math.min(at + chunk, whole.length));
                    }
                    assertArrayEquals(whole, wire(dst), kind + " into " + into + ", chunk " + chunk);
                }
            }
        }
    }

    @Test
    void typedByteBuffersTravelAsValuesWhateverTheirOrder() {
        ByteBuffer be = ByteBuffer.allocate(8); // big-endian
        be.putInt(0, 255).putInt(4, -2);
        int[] got = new int[2];
        Buffer.of(got).copyFrom(Buffer.of(be, ElementType.INT));
        assertArrayEquals(new int[] {255, -2}, got);
    }

    @Test
    void reductionsReadByteBuffersInTheirOwnOrder() {
        ByteBuffer x = ByteBuffer.allocate(4);
        x.putInt(0, 255);
        ByteBuffer y = ByteBuffer.allocate(4);
        y.putInt(0, 1);
        Op.SUM.apply(Buffer.of(x, ElementType.INT), Buffer.of(y, ElementType.INT));
        assertEquals(256, y.getInt(0));
        int[] z = {4};
        Op.SUM.apply(Buffer.of(x, ElementType.INT), Buffer.of(z));
        assertEquals(259, z[0]);
    }

    @Test
    void badWindowsAreRejectedWithTheirNumbers() {
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                () -> Buffer.of(new int[4], 3, 2));
        assertEquals("offset=3, count=2 outside array of length 4", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Buffer.of(ByteBuffer.allocate(6), ElementType.INT));
    }
}
