package io.mpirunj.runtime.reduce;

import io.mpirunj.Buffer;
import io.mpirunj.ElementType;
import io.mpirunj.Op;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
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
 * <p>Array-backed buffers are combined in place by one tight loop per (type, operator). A
 * ByteBuffer-backed side (direct or heap, each read and written in its own byte order) goes through
 * the same loops {@value #CHUNK} elements at a time: its chunk is copied in bulk into a scratch array
 * of the calling thread, combined, and the result copied back. Bulk copies of a chunk that stays in
 * the cache cost less than an element-by-element access to the ByteBuffer, and every case shares
 * one set of kernels.
 *
 * <p>Thread-safe; the two buffers may be the same memory, or have none in common (windows that overlap in
 * part give results that depend on the chunks, as MPI forbids such buffers anyway). Allocates only a few views per call with
 * a ByteBuffer-backed side, and each thread's scratch arrays at its first such call per type.
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
        if (in.hasArray() && inout.hasArray()) {
            applyArrays(op, type, in.array(), in.arrayOffset(), inout.array(), inout.arrayOffset(), n);
            return;
        }
        java.nio.Buffer inView = in.hasArray() ? null : typedView(in.byteBuffer(), type);
        java.nio.Buffer inoutView = inout.hasArray() ? null : typedView(inout.byteBuffer(), type);
        Object[] scratch = SCRATCH.get();
        int chunk = Math.min(CHUNK, n);
        Object inChunk = inView == null ? in.array() : scratchOf(scratch, type, 0, chunk);
        Object inoutChunk = inoutView == null ? inout.array() : scratchOf(scratch, type, 1, chunk);
        for (int done = 0; done < n; done += CHUNK) {
            int m = Math.min(CHUNK, n - done);
            if (inView != null) {
                bulk(inView, type, done, inChunk, m, false);
            }
            if (inoutView != null) {
                bulk(inoutView, type, done, inoutChunk, m, false);
            }
            // a scratch chunk starts at 0; an array side is read in place
            applyArrays(op, type, inChunk, inView != null ? 0 : in.arrayOffset() + done, inoutChunk,
                    inoutView != null ? 0 : inout.arrayOffset() + done, m);
            if (inoutView != null) {
                bulk(inoutView, type, done, inoutChunk, m, true);
            }
        }
    }

    /** Elements a ByteBuffer-backed side is combined in at a time (see the class comment). */
    static final int CHUNK = 2048;

    /**
     * Per thread, per type, two scratch arrays (in, inout) of up to {@link #CHUNK} elements, made at first use as
     * long as that call needs and grown when a later call needs more.
     */
    private static final ThreadLocal<Object[]> SCRATCH = ThreadLocal.withInitial(
            () -> new Object[2 * ElementType.values().length]);

    private static Object scratchOf(Object[] scratch, ElementType type, int side, int elements) {
        int k = 2 * type.ordinal() + side;
        Object a = scratch[k];
        if (a == null || java.lang.reflect.Array.getLength(a) < elements) {
            a = switch (type) {
                case BYTE -> new byte[elements];
                case INT -> new int[elements];
                case LONG -> new long[elements];
                case FLOAT -> new float[elements];
                case DOUBLE -> new double[elements];
            };
            scratch[k] = a;
        }
        return a;
    }

    /** {@code bytes} seen as elements of {@code type} in its own byte order. */
    private static java.nio.Buffer typedView(ByteBuffer bytes, ElementType type) {
        return switch (type) {
            case BYTE -> bytes;
            case INT -> bytes.asIntBuffer();
            case LONG -> bytes.asLongBuffer();
            case FLOAT -> bytes.asFloatBuffer();
            case DOUBLE -> bytes.asDoubleBuffer();
        };
    }

    /** Copies {@code m} elements between {@code view} (from element {@code at}) and the start of {@code array}. */
    private static void bulk(java.nio.Buffer view, ElementType type, int at, Object array, int m, boolean toView) {
        switch (type) {
            case BYTE -> { if (toView) ((ByteBuffer) view).put(at, (byte[]) array, 0, m); else ((ByteBuffer) view).get(at, (byte[]) array, 0, m); }
            case INT -> { if (toView) ((IntBuffer) view).put(at, (int[]) array, 0, m); else ((IntBuffer) view).get(at, (int[]) array, 0, m); }
            case LONG -> { if (toView) ((LongBuffer) view).put(at, (long[]) array, 0, m); else ((LongBuffer) view).get(at, (long[]) array, 0, m); }
            case FLOAT -> { if (toView) ((FloatBuffer) view).put(at, (float[]) array, 0, m); else ((FloatBuffer) view).get(at, (float[]) array, 0, m); }
            case DOUBLE -> { if (toView) ((DoubleBuffer) view).put(at, (double[]) array, 0, m); else ((DoubleBuffer) view).get(at, (double[]) array, 0, m); }
            default -> throw new IllegalStateException("no bulk copy for " + type);
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

    private static IllegalArgumentException unknown(Op op) {
        return new IllegalArgumentException("op=" + op + " is not supported here");
    }
}
