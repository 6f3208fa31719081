package io.mpirunj.runtime.reduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.mpirunj.Buffer;
import io.mpirunj.ElementType;
import io.mpirunj.Op;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every operator on every element type and every kind of buffer, against a scalar reference that
 * is written independently of {@link Reductions}.
 */
class ReductionsTest {
    private static final int COUNT = 37;
    /** Elements (or bytes, for ByteBuffers) of padding either side of a window; must stay untouched. */
    private static final int PAD = 3;

    /** How a test buffer is backed; a ByteBuffer's byte order is the test's choice (little-endian unless it says). */
    enum Backing {
        ARRAY, ARRAY_WINDOW, HEAP, DIRECT
    }

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (Op op : Op.values()) {
            for (ElementType type : ElementType.values()) {
                if (op.isBitwise() && !type.isInteger()) {
                    continue;
                }
                for (Backing in : Backing.values()) {
                    for (Backing inout : Backing.values()) {
                        out.add(Arguments.of(op, type, in, inout));
                    }
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} in={2} inout={3}")
    @MethodSource("cases")
    void matchesReference(Op op, ElementType type, Backing inBacking, Backing inoutBacking) {
        check(op, type, inBacking, inoutBacking, COUNT, ByteOrder.LITTLE_ENDIAN, ByteOrder.LITTLE_ENDIAN);
    }

    static Stream<Arguments> chunkedCases() {
        List<Arguments> out = new ArrayList<>();
        for (Op op : new Op[] {Op.SUM, Op.MAX, Op.BXOR}) {
            for (ElementType type : ElementType.values()) {
                if (op.isBitwise() && !type.isInteger()) {
                    continue;
                }
                for (Backing in : Backing.values()) {
                    for (Backing inout : Backing.values()) {
                        if (in == Backing.HEAP || in == Backing.DIRECT || inout == Backing.HEAP || inout == Backing.DIRECT) {
                            out.add(Arguments.of(op, type, in, inout));
                        }
                    }
                }
            }
        }
        return out.stream();
    }

    /**
     * A ByteBuffer-backed side is combined in chunks of {@link Reductions#CHUNK} elements: several chunks and a
     * partial one, the two sides in opposite byte orders.
     */
    @ParameterizedTest(name = "{0} {1} in={2} inout={3}")
    @MethodSource("chunkedCases")
    void chunksMatchReference(Op op, ElementType type, Backing inBacking, Backing inoutBacking) {
        check(op, type, inBacking, inoutBacking, 2 * Reductions.CHUNK + COUNT, ByteOrder.BIG_ENDIAN,
                ByteOrder.LITTLE_ENDIAN);
        check(op, type, inBacking, inoutBacking, 2 * Reductions.CHUNK, ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN);
    }

    private static void check(Op op, ElementType type, Backing inBacking, Backing inoutBacking, int count,
            ByteOrder inOrder, ByteOrder inoutOrder) {
        Random rnd = new Random(31L * op.ordinal() + 7L * type.ordinal() + inBacking.ordinal() + count);
        double[] x = values(type, rnd, count);
        double[] y = values(type, rnd, count);
        long[] xl = longValues(type, rnd, count);
        long[] yl = longValues(type, rnd, count);
        Backed in = Backed.create(type, inBacking, count, inOrder);
        Backed inout = Backed.create(type, inoutBacking, count, inoutOrder);
        for (int i = 0; i < count; i++) {
            if (type.isInteger()) {
                in.setLong(i, xl[i]);
                inout.setLong(i, yl[i]);
            } else {
                in.setDouble(i, x[i]);
                inout.setDouble(i, y[i]);
            }
        }

        op.apply(in.buffer, inout.buffer);

        for (int i = 0; i < count; i++) {
            String at = op + " " + type + " element " + i;
            if (type.isInteger()) {
                assertEquals(referenceLong(op, type, yl[i], xl[i]), inout.getLong(i), at);
                assertEquals(xl[i], in.getLong(i), at + " (in must not change)");
            } else if (type == ElementType.FLOAT) {
                assertEquals((float) referenceDouble(op, type, y[i], x[i]), (float) inout.getDouble(i), at);
                assertEquals((float) x[i], (float) in.getDouble(i), at + " (in must not change)");
            } else {
                assertEquals(referenceDouble(op, type, y[i], x[i]), inout.getDouble(i), at);
                assertEquals(x[i], in.getDouble(i), at + " (in must not change)");
            }
        }
        in.assertPaddingUntouched();
        inout.assertPaddingUntouched();
    }

    static Stream<Arguments> byteBufferKernelCases() {
        List<Arguments> out = new ArrayList<>();
        for (Op op : Op.values()) {
            for (ElementType type : ElementType.values()) {
                if (op.isBitwise() && !type.isInteger()) {
                    continue;
                }
                for (ByteOrder order : new ByteOrder[] {ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
                    for (Backing b : new Backing[] {Backing.HEAP, Backing.DIRECT}) {
                        out.add(Arguments.of(op, type, order, b));
                    }
                }
            }
        }
        return out.stream();
    }

    /** Two ByteBuffer-backed windows are combined in place, each read in its own byte order. */
    @ParameterizedTest(name = "{0} {1} {2} {3}")
    @MethodSource("byteBufferKernelCases")
    void byteBufferKernelMatchesReference(Op op, ElementType type, ByteOrder order, Backing backing) {
        check(op, type, backing, backing, COUNT, order, order);
    }

    @ParameterizedTest
    @EnumSource(value = Op.class, names = {"BAND", "BOR", "BXOR"})
    void bitwiseOnFloatingPointIsRejected(Op op) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> op.apply(Buffer.of(new float[2]), Buffer.of(new float[2])));
        assertEquals("bitwise " + op + " is not defined on FLOAT (expected: BYTE, INT or LONG)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> op.apply(Buffer.of(new double[0]), Buffer.of(new double[0])));
        assertEquals("bitwise " + op + " is not defined on DOUBLE (expected: BYTE, INT or LONG)", e.getMessage());
    }

    @Test
    void mismatchedTypesAreRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Op.SUM.apply(Buffer.of(new int[3]), Buffer.of(new long[3])));
        assertEquals("reduction SUM over mismatched element types: in.type=INT, inout.type=LONG", e.getMessage());
    }

    @Test
    void mismatchedCountsAreRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Op.MAX.apply(Buffer.of(new double[3]), Buffer.of(new double[4])));
        assertEquals("reduction MAX over mismatched counts: in.count=3, inout.count=4", e.getMessage());
    }

    @Test
    void zeroElementsIsANoOp() {
        int[] a = {5};
        Op.SUM.apply(Buffer.of(new int[] {1}, 0, 0), Buffer.of(a, 0, 0));
        assertEquals(5, a[0]);
        Op.SUM.apply(Buffer.of(ByteBuffer.allocateDirect(0), ElementType.LONG),
                Buffer.of(ByteBuffer.allocate(0), ElementType.LONG));
    }

    @Test
    void sameBufferAsBothOperands() {
        int[] a = {1, 2, 3};
        Buffer b = Buffer.of(a);
        Op.SUM.apply(b, b);
        assertEquals(List.of(2, 4, 6), List.of(a[0], a[1], a[2]));
        int n = Reductions.CHUNK + COUNT; // a ByteBuffer as both operands, over a chunk boundary
        ByteBuffer direct = ByteBuffer.allocateDirect(n * Integer.BYTES).order(ByteOrder.BIG_ENDIAN);
        for (int i = 0; i < n; i++) {
            direct.putInt(i * Integer.BYTES, i);
        }
        Buffer d = Buffer.of(direct, ElementType.INT);
        Op.SUM.apply(d, d);
        for (int i = 0; i < n; i++) {
            assertEquals(2 * i, direct.getInt(i * Integer.BYTES), "element " + i);
        }
    }

    @Test
    void integerArithmeticWraps() {
        byte[] b = {Byte.MAX_VALUE, 16};
        Op.SUM.apply(Buffer.of(new byte[] {1, 16}), Buffer.of(b));
        assertEquals(Byte.MIN_VALUE, b[0]);
        Op.PROD.apply(Buffer.of(new byte[] {1, 16}), Buffer.of(b));
        assertEquals(0, b[1]); // 32 * 16 = 512 = 0 mod 256
        int[] i = {Integer.MAX_VALUE};
        Op.SUM.apply(Buffer.of(new int[] {1}), Buffer.of(i));
        assertEquals(Integer.MIN_VALUE, i[0]);
    }

    // ---- reference ------------------------------------------------------------------------------

    /** {@code y (op) x} for an integer type, computed on longs and then narrowed to the type. */
    private static long referenceLong(Op op, ElementType type, long y, long x) {
        long r;
        switch (op) {
            case SUM: r = y + x; break;
            case PROD: r = y * x; break;
            case MIN: r = y <= x ? y : x; break;
            case MAX: r = y >= x ? y : x; break;
            case LAND: r = (y != 0 & x != 0) ? 1 : 0; break;
            case LOR: r = (y != 0 | x != 0) ? 1 : 0; break;
            case LXOR: r = (y != 0 ^ x != 0) ? 1 : 0; break;
            case BAND: r = y & x; break;
            case BOR: r = y | x; break;
            default: r = y ^ x; break;
        }
        switch (type) {
            case BYTE: return (byte) r;
            case INT: return (int) r;
            default: return r;
        }
    }

    /** {@code y (op) x} for FLOAT or DOUBLE; min/max spelled out (NaN wins, -0.0 below +0.0). */
    private static double referenceDouble(Op op, ElementType type, double y, double x) {
        boolean f = type == ElementType.FLOAT;
        switch (op) {
            case SUM: return f ? (double) ((float) y + (float) x) : y + x;
            case PROD: return f ? (double) ((float) y * (float) x) : y * x;
            case MIN:
            case MAX: {
                if (Double.isNaN(y) || Double.isNaN(x)) {
                    return Double.NaN;
                }
                if (y == 0 && x == 0) {
                    boolean yNeg = 1 / y < 0;
                    boolean xNeg = 1 / x < 0;
                    boolean neg = op == Op.MIN ? (yNeg || xNeg) : (yNeg && xNeg);
                    return neg ? -0.0 : 0.0;
                }
                return op == Op.MIN ? (y < x ? y : x) : (y > x ? y : x);
            }
            case LAND: return (y != 0 & x != 0) ? 1 : 0;
            case LOR: return (y != 0 | x != 0) ? 1 : 0;
            default: return (y != 0 ^ x != 0) ? 1 : 0;
        }
    }

    /** Floating-point test values, exactly representable as floats: zeros of both signs, NaN, infinities, ordinary values. */
    private static double[] values(ElementType type, Random rnd, int n) {
        double[] special = {0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1.0, -1.0};
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            int pick = rnd.nextInt(10);
            v[i] = pick < 3 ? special[rnd.nextInt(special.length)] : (rnd.nextDouble() - 0.5) * 1e6;
            if (type == ElementType.FLOAT) {
                v[i] = (float) v[i];
            }
        }
        return v;
    }

    /** Integer test values in range for the type: zeros, extremes, small and random values. */
    private static long[] longValues(ElementType type, Random rnd, int n) {
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            int pick = rnd.nextInt(10);
            long raw;
            if (pick < 2) {
                raw = 0;
            } else if (pick < 3) {
                raw = rnd.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE;
            } else if (pick < 6) {
                raw = rnd.nextInt(21) - 10;
            } else {
                raw = rnd.nextLong();
            }
            switch (type) {
                case BYTE: v[i] = (byte) raw; break;
                case INT: v[i] = (int) raw; break;
                default: v[i] = raw; break;
            }
            if (pick < 3 && raw != 0) { // extremes of the type
                v[i] = type == ElementType.BYTE ? (raw > 0 ? Byte.MAX_VALUE : Byte.MIN_VALUE)
                        : type == ElementType.INT ? (raw > 0 ? Integer.MAX_VALUE : Integer.MIN_VALUE) : raw;
            }
        }
        return v;
    }

    /** A test buffer and direct access to the memory behind it. */
    private static final class Backed {
        final ElementType type;
        final Buffer buffer;
        final Object array;
        final ByteBuffer bytes;
        final int off;
        final int count;
        final byte guard = (byte) 0x5A;

        private Backed(ElementType type, Buffer buffer, Object array, ByteBuffer bytes, int off, int count) {
            this.type = type;
            this.buffer = buffer;
            this.array = array;
            this.bytes = bytes;
            this.off = off;
            this.count = count;
        }

        static Backed create(ElementType type, Backing backing, int n, ByteOrder order) {
            switch (backing) {
                case ARRAY:
                case ARRAY_WINDOW: {
                    int off = backing == Backing.ARRAY ? 0 : PAD;
                    int len = backing == Backing.ARRAY ? n : n + 2 * PAD;
                    Buffer b = Buffer.allocate(type, len);
                    Object a = b.array();
                    for (int i = 0; i < len; i++) {
                        setArray(type, a, i, 0x5A);
                    }
                    return new Backed(type, wrap(type, a, off, n), a, null, off, n);
                }
                default: {
                    int len = n * type.bytes() + 2 * PAD;
                    ByteBuffer bb = (backing == Backing.DIRECT ? ByteBuffer.allocateDirect(len) : ByteBuffer.allocate(len))
                            .order(order);
                    for (int i = 0; i < len; i++) {
                        bb.put(i, (byte) 0x5A);
                    }
                    bb.position(PAD).limit(PAD + n * type.bytes());
                    Buffer b = Buffer.of(bb, type);
                    return new Backed(type, b, null, bb, PAD, n);
                }
            }
        }

        private static Buffer wrap(ElementType type, Object a, int off, int n) {
            switch (type) {
                case BYTE: return Buffer.of((byte[]) a, off, n);
                case INT: return Buffer.of((int[]) a, off, n);
                case LONG: return Buffer.of((long[]) a, off, n);
                case FLOAT: return Buffer.of((float[]) a, off, n);
                default: return Buffer.of((double[]) a, off, n);
            }
        }

        private static void setArray(ElementType type, Object a, int i, double v) {
            switch (type) {
                case BYTE: ((byte[]) a)[i] = (byte) v; break;
                case INT: ((int[]) a)[i] = (int) v; break;
                case LONG: ((long[]) a)[i] = (long) v; break;
                case FLOAT: ((float[]) a)[i] = (float) v; break;
                default: ((double[]) a)[i] = v; break;
            }
        }

        void setLong(int i, long v) {
            if (array != null) {
                switch (type) {
                    case BYTE: ((byte[]) array)[off + i] = (byte) v; break;
                    case INT: ((int[]) array)[off + i] = (int) v; break;
                    default: ((long[]) array)[off + i] = v; break;
                }
                return;
            }
            int at = off + i * type.bytes();
            switch (type) {
                case BYTE: bytes.put(at, (byte) v); break;
                case INT: bytes.putInt(at, (int) v); break;
                default: bytes.putLong(at, v); break;
            }
        }

        long getLong(int i) {
            if (array != null) {
                switch (type) {
                    case BYTE: return ((byte[]) array)[off + i];
                    case INT: return ((int[]) array)[off + i];
                    default: return ((long[]) array)[off + i];
                }
            }
            int at = off + i * type.bytes();
            switch (type) {
                case BYTE: return bytes.get(at);
                case INT: return bytes.getInt(at);
                default: return bytes.getLong(at);
            }
        }

        void setDouble(int i, double v) {
            if (array != null) {
                if (type == ElementType.FLOAT) {
                    ((float[]) array)[off + i] = (float) v;
                } else {
                    ((double[]) array)[off + i] = v;
                }
                return;
            }
            int at = off + i * type.bytes();
            if (type == ElementType.FLOAT) {
                bytes.putFloat(at, (float) v);
            } else {
                bytes.putDouble(at, v);
            }
        }

        double getDouble(int i) {
            if (array != null) {
                return type == ElementType.FLOAT ? ((float[]) array)[off + i] : ((double[]) array)[off + i];
            }
            int at = off + i * type.bytes();
            return type == ElementType.FLOAT ? bytes.getFloat(at) : bytes.getDouble(at);
        }

        void assertPaddingUntouched() {
            if (array != null) {
                if (off == 0) {
                    return;
                }
                for (int i = 0; i < PAD; i++) {
                    assertEquals(0x5A, (int) getRaw(i), "padding before the window");
                    assertEquals(0x5A, (int) getRaw(off + count + i), "padding after the window");
                }
                return;
            }
            int end = off + count * type.bytes();
            ByteBuffer all = bytes.duplicate().clear();
            for (int i = 0; i < PAD; i++) {
                assertEquals(guard, all.get(i), "padding byte before the window");
                assertEquals(guard, all.get(end + i), "padding byte after the window");
            }
            assertEquals(PAD, bytes.position(), "position must not move");
            assertEquals(end, bytes.limit(), "limit must not move");
        }

        private double getRaw(int i) {
            switch (type) {
                case BYTE: return ((byte[]) array)[i];
                case INT: return ((int[]) array)[i];
                case LONG: return ((long[]) array)[i];
                case FLOAT: return ((float[]) array)[i];
                default: return ((double[]) array)[i];
            }
        }
    }
}
