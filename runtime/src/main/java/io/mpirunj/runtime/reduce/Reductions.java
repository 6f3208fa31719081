package io.mpirunj.runtime.reduce;

import io.mpirunj.Buffer;
import io.mpirunj.ElementType;
import io.mpirunj.Op;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The element-wise reduction kernels behind {@link Op#apply}: {@code inout[i] = inout[i] (op) in[i]}.
 *
 * <p>Semantics, per element type:
 * <ul>
 *   <li>SUM, PROD: Java arithmetic; integer types (BYTE included, as signed 8-bit) wrap around.
 *   <li>MIN, MAX: {@link Math#min}/{@link Math#max}, so on FLOAT and DOUBLE a NaN wins and
 *       {@code -0.0 < +0.0}; BYTE compares signed.
 *   <li>LAND, LOR, LXOR: non-zero (NaN included) is true; the result is 1 or 0, on every type.
 *   <li>BAND, BOR, BXOR: BYTE, INT and LONG only; FLOAT and DOUBLE throw
 *       {@link IllegalArgumentException}.
 * </ul>
 *
 * <p>Array-backed buffers are combined in place by one tight loop per (type, operator); two
 * ByteBuffer-backed ones in place by {@link #applyBytes}, each read in its own byte order. A mix of
 * the two goes through an array-backed copy ({@link Buffer#copy()}, written back with
 * {@link Buffer#copyFrom}), which converts byte orders.
 *
 * <p>Stateless and thread-safe; the two buffers may be the same memory. Allocates only for
 * ByteBuffer-backed buffers.
 */
public final class Reductions {
    private Reductions() {
    }

    /**
     * {@code inout[i] = inout[i] (op) in[i]} for every element.
     *
     * @throws IllegalArgumentException when the element types or counts differ, or for a bitwise
     *     operator on FLOAT or DOUBLE
     */
    public static void apply(Op op, Buffer in, Buffer inout) {
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(inout, "inout");
        ElementType type = in.type();
        if (type != inout.type()) {
            throw new IllegalArgumentException("reduction " + op + " over mismatched element types: in.type=" + type
                    + ", inout.type=" + inout.type());
        }
        if (in.count() != inout.count()) {
            throw new IllegalArgumentException("reduction " + op + " over mismatched counts: in.count=" + in.count()
                    + ", inout.count=" + inout.count());
        }
        checkDefined(op, type);
        int n = in.count();
        if (n == 0) {
            return;
        }
        ByteBuffer inBytes = in.byteBuffer();
        ByteBuffer inoutBytes = inout.byteBuffer();
        if (inBytes != null && inoutBytes != null) {
            applyBytes(op, type, inBytes, 0, inoutBytes, 0, n);
            return;
        }
        // Mixed array/ByteBuffer: combine on array copies; Buffer's copies convert byte orders.
        Buffer a = in.hasArray() ? in : in.copy();
        Buffer b = inout.hasArray() ? inout : inout.copy();
        applyArrays(op, type, a.array(), a.arrayOffset(), b.array(), b.arrayOffset(), n);
        if (b != inout) {
            inout.copyFrom(b);
        }
    }

    /**
     * Throws unless {@code op} is defined on {@code type} (the bitwise operators need an integer
     * type).
     */
    public static void checkDefined(Op op, ElementType type) {
        if (op.isBitwise() && !type.isInteger()) {
            throw new IllegalArgumentException("bitwise " + op + " is not defined on " + type
                    + " (expected: BYTE, INT or LONG)");
        }
    }

    // ---- arrays ----------------------------------------------------------------------------------

    private static void applyArrays(Op op, ElementType type, Object in, int inOff, Object inout, int ioOff, int n) {
        switch (type) {
            case BYTE: bytes(op, (byte[]) in, inOff, (byte[]) inout, ioOff, n); break;
            case INT: ints(op, (int[]) in, inOff, (int[]) inout, ioOff, n); break;
            case LONG: longs(op, (long[]) in, inOff, (long[]) inout, ioOff, n); break;
            case FLOAT: floats(op, (float[]) in, inOff, (float[]) inout, ioOff, n); break;
            default: doubles(op, (double[]) in, inOff, (double[]) inout, ioOff, n); break;
        }
    }

    private static void bytes(Op op, byte[] a, int ao, byte[] b, int bo, int n) {
        switch (op) {
            case SUM: for (int i = 0; i < n; i++) b[bo + i] = (byte) (b[bo + i] + a[ao + i]); break;
            case PROD: for (int i = 0; i < n; i++) b[bo + i] = (byte) (b[bo + i] * a[ao + i]); break;
            case MIN: for (int i = 0; i < n; i++) b[bo + i] = (byte) Math.min(b[bo + i], a[ao + i]); break;
            case MAX: for (int i = 0; i < n; i++) b[bo + i] = (byte) Math.max(b[bo + i], a[ao + i]); break;
            case LAND: for (int i = 0; i < n; i++) b[bo + i] = (byte) (b[bo + i] != 0 && a[ao + i] != 0 ? 1 : 0); break;
            case LOR: for (int i = 0; i < n; i++) b[bo + i] = (byte) (b[bo + i] != 0 || a[ao + i] != 0 ? 1 : 0); break;
            case LXOR: for (int i = 0; i < n; i++) b[bo + i] = (byte) ((b[bo + i] != 0) != (a[ao + i] != 0) ? 1 : 0); break;
            case BAND: for (int i = 0; i < n; i++) b[bo + i] &= a[ao + i]; break;
            case BOR: for (int i = 0; i < n; i++) b[bo + i] |= a[ao + i]; break;
            case BXOR: for (int i = 0; i < n; i++) b[bo + i] ^= a[ao + i]; break;
            default: throw unknown(op);
        }
    }

    private static void ints(Op op, int[] a, int ao, int[] b, int bo, int n) {
        switch (op) {
            case SUM: for (int i = 0; i < n; i++) b[bo + i] += a[ao + i]; break;
            case PROD: for (int i = 0; i < n; i++) b[bo + i] *= a[ao + i]; break;
            case MIN: for (int i = 0; i < n; i++) b[bo + i] = Math.min(b[bo + i], a[ao + i]); break;
            case MAX: for (int i = 0; i < n; i++) b[bo + i] = Math.max(b[bo + i], a[ao + i]); break;
            case LAND: for (int i = 0; i < n; i++) b[bo + i] = b[bo + i] != 0 && a[ao + i] != 0 ? 1 : 0; break;
            case LOR: for (int i = 0; i < n; i++) b[bo + i] = b[bo + i] != 0 || a[ao + i] != 0 ? 1 : 0; break;
            case LXOR: for (int i = 0; i < n; i++) b[bo + i] = (b[bo + i] != 0) != (a[ao + i] != 0) ? 1 : 0; break;
            case BAND: for (int i = 0; i < n; i++) b[bo + i] &= a[ao + i]; break;
            case BOR: for (int i = 0; i < n; i++) b[bo + i] |= a[ao + i]; break;
            case BXOR: for (int i = 0; i < n; i++) b[bo + i] ^= a[ao + i]; break;
            default: throw unknown(op);
        }
    }

    private static void longs(Op op, long[] a, int ao, long[] b, int bo, int n) {
        switch (op) {
            case SUM: for (int i = 0; i < n; i++) b[bo + i] += a[ao + i]; break;
            case PROD: for (int i = 0; i < n; i++) b[bo + i] *= a[ao + i]; break;
            case MIN: for (int i = 0; i < n; i++) b[bo + i] = Math.min(b[bo + i], a[ao + i]); break;
            case MAX: for (int i = 0; i < n; i++) b[bo + i] = Math.max(b[bo + i], a[ao + i]); break;
            case LAND: for (int i = 0; i < n; i++) b[bo + i] = b[bo + i] != 0 && a[ao + i] != 0 ? 1 : 0; break;
            case LOR: for (int i = 0; i < n; i++) b[bo + i] = b[bo + i] != 0 || a[ao + i] != 0 ? 1 : 0; break;
            case LXOR: for (int i = 0; i < n; i++) b[bo + i] = (b[bo + i] != 0) != (a[ao + i] != 0) ? 1 : 0; break;
            case BAND: for (int i = 0; i < n; i++) b[bo + i] &= a[ao + i]; break;
            case BOR: for (int i = 0; i < n; i++) b[bo + i] |= a[ao + i]; break;
            case BXOR: for (int i = 0; i < n; i++) b[bo + i] ^= a[ao + i]; break;
            default: throw unknown(op);
        }
    }

    private static void floats(Op op, float[] a, int ao, float[] b, int bo, int n) {
        switch (op) {
            case SUM: for (int i = 0; i < n; i++) b[bo + i] += a[ao + i]; break;
            case PROD: for (int i = 0; i < n; i++) b[bo + i] *= a[ao + i]; break;
            case MIN: for (int i = 0; i < n; i++) b[bo + i] = Math.min(b[bo + i], a[ao + i]); break;
            case MAX: for (int i = 0; i < n; i++) b[bo + i] = Math.max(b[bo + i], a[ao + i]); break;
            case LAND: for (int i = 0; i < n; i++) b[bo + i] = b[bo + i] != 0 && a[ao + i] != 0 ? 1 : 0; break;
            case LOR: for (int i = 0; i < n; i++) b[bo + i] = b[bo + i] != 0 || a[ao + i] != 0 ? 1 : 0; break;
            case LXOR: for (int i = 0; i < n; i++) b[bo + i] = (b[bo + i] != 0) != (a[ao + i] != 0) ? 1 : 0; break;
            default: throw unknown(op);
        }
    }

    private static void doubles(Op op, double[] a, int ao, double[] b, int bo, int n) {
        switch (op) {
            case SUM: for (int i = 0; i < n; i++) b[bo + i] += a[ao + i]; break;
            case PROD: for (int i = 0; i < n; i++) b[bo + i] *= a[ao + i]; break;
            case MIN: for (int i = 0; i < n; i++) b[bo + i] = Math.min(b[bo + i], a[ao + i]); break;
            case MAX: for (int i = 0; i < n; i++) b[bo + i] = Math.max(b[bo + i], a[ao + i]); break;
            case LAND: for (int i = 0; i < n; i++) b[bo + i] = b[bo + i] != 0 && a[ao + i] != 0 ? 1 : 0; break;
            case LOR: for (int i = 0; i < n; i++) b[bo + i] = b[bo + i] != 0 || a[ao + i] != 0 ? 1 : 0; break;
            case LXOR: for (int i = 0; i < n; i++) b[bo + i] = (b[bo + i] != 0) != (a[ao + i] != 0) ? 1 : 0; break;
            default: throw unknown(op);
        }
    }

    // ---- ByteBuffer windows ----------------------------------------------------------------------

    /**
     * The in-place kernel for ByteBuffer-backed windows: combines {@code count} elements of
     * {@code type} starting at absolute byte offset {@code inOffset} of {@code in} into those at
     * {@code inoutOffset} of {@code inout}. Each ByteBuffer is read and written in its own
     * {@link ByteBuffer#order() order} with absolute get/put, so neither position nor limit moves.
     * The caller has checked the op against the type and the windows against the buffers.
     */
    static void applyBytes(Op op, ElementType type, ByteBuffer in, int inOffset, ByteBuffer inout, int inoutOffset,
            int count) {
        int size = type.bytes();
        for (int i = 0; i < count; i++) {
            int x = inOffset + i * size;
            int y = inoutOffset + i * size;
            switch (type) {
                case BYTE: inout.put(y, (byte) combine(op, inout.get(y), in.get(x))); break;
                case INT: inout.putInt(y, (int) combine(op, inout.getInt(y), in.getInt(x))); break;
                case LONG: inout.putLong(y, combine(op, inout.getLong(y), in.getLong(x))); break;
                case FLOAT: inout.putFloat(y, combine(op, inout.getFloat(y), in.getFloat(x))); break;
                default: inout.putDouble(y, combine(op, inout.getDouble(y), in.getDouble(x))); break;
            }
        }
    }

    /**
     * {@code b (op) a} on sign-extended integers; the caller narrows, which wraps like Java arithmetic
     * (also for types the runtime does not carry, such as mpi-compat's shorts and chars).
     */
    public static long combine(Op op, long b, long a) {
        switch (op) {
            case SUM: return b + a;
            case PROD: return b * a;
            case MIN: return Math.min(b, a);
            case MAX: return Math.max(b, a);
            case LAND: return b != 0 && a != 0 ? 1 : 0;
            case LOR: return b != 0 || a != 0 ? 1 : 0;
            case LXOR: return (b != 0) != (a != 0) ? 1 : 0;
            case BAND: return b & a;
            case BOR: return b | a;
            case BXOR: return b ^ a;
            default: throw unknown(op);
        }
    }

    private static float combine(Op op, float b, float a) {
        switch (op) {
            case SUM: return b + a;
            case PROD: return b * a;
            case MIN: return Math.min(b, a);
            case MAX: return Math.max(b, a);
            case LAND: return b != 0 && a != 0 ? 1 : 0;
            case LOR: return b != 0 || a != 0 ? 1 : 0;
            case LXOR: return (b != 0) != (a != 0) ? 1 : 0;
            default: throw unknown(op);
        }
    }

    private static double combine(Op op, double b, double a) {
        switch (op) {
            case SUM: return b + a;
            case PROD: return b * a;
            case MIN: return Math.min(b, a);
            case MAX: return Math.max(b, a);
            case LAND: return b != 0 && a != 0 ? 1 : 0;
            case LOR: return b != 0 || a != 0 ? 1 : 0;
            case LXOR: return (b != 0) != (a != 0) ? 1 : 0;
            default: throw unknown(op);
        }
    }

    private static IllegalArgumentException unknown(Op op) {
        return new IllegalArgumentException("op=" + op + " is not supported here");
    }
}
