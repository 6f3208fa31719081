package mpi;

import io.mpirunj.Buffer;
import io.mpirunj.runtime.reduce.Reductions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Applies an {@link Op} to little-endian byte images of datatype elements ({@code inOut[i] = in[i] op
 * inOut[i]}): what this package's own reductions (MINLOC/MAXLOC, user functions, char and short data,
 * complex products) compute with.
 */
final class Combiner {
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private Combiner() {
    }

    /** True when the runtime's pluggable reduce/allreduce can run this op on this datatype. */
    static boolean runtimeCan(Op op, Datatype type) {
        if (op.builtin == null || type.unit.elementType == null && type.unit != Datatype.Unit.BOOLEAN) {
            return false;
        }
        if (type.kind == Datatype.Kind.COMPLEX && op.builtin != io.mpirunj.Op.SUM) {
            return false; // a complex product is not element-wise
        }
        return !(op.builtin.isBitwise() && !type.unit.wireType().isInteger());
    }

    /** Checks, before any data moves, that {@code op} is defined on {@code type}. */
    static void check(String call, Op op, Datatype type) {
        if (op == null) {
            throw new MPIException(call + ": the op is null", null, MPI.ERR_OP);
        }
        if (op.loc != null && type.kind != Datatype.Kind.PAIR) {
            throw new MPIException(call + ": " + op + " needs a pair datatype (INT2, SHORT_INT, LONG_INT, FLOAT_INT, "
                    + "DOUBLE_INT), got " + type, null, MPI.ERR_OP);
        }
        if (op.builtin != null && type.unit.isStruct()) {
            throw new MPIException(call + ": " + op + " is not defined on " + type + " (only MINLOC and MAXLOC are)",
                    null, MPI.ERR_OP);
        }
        if (op.builtin != null && op.builtin.isBitwise()
                && (type.unit == Datatype.Unit.FLOAT || type.unit == Datatype.Unit.DOUBLE)) {
            throw new MPIException(call + ": " + op + " is not defined on " + type, null, MPI.ERR_OP);
        }
    }

    /**
     * {@code inOut = in op inOut} over {@code count} elements. {@code nio} says whether a user
     * function gets byte buffers (the call's buffers were NIO buffers) or arrays (if it overrides the array form:
     * {@link Op#arrayForm}).
     */
    static void combine(Op op, Datatype type, byte[] in, byte[] inOut, int count, boolean nio) {
        ByteBuffer a = ByteBuffer.wrap(in).order(LE);
        ByteBuffer b = ByteBuffer.wrap(inOut).order(LE);
        if (op.function != null) {
            if (nio || !op.arrayForm) {
                op.function.call(a, b, count, type);
            } else {
                Object x = toArray(a, count, type);
                Object y = toArray(b, count, type);
                op.function.call(x, y, count, type);
                fromArray(y, b, count, type);
            }
            return;
        }
        int n = count * type.units;
        if (op.loc != null) {
            location(op.loc.equals("MAXLOC"), type.unit, a, b, n / (type.unit == Datatype.Unit.INT ? 2 : 1));
            return;
        }
        if (type.kind == Datatype.Kind.COMPLEX && op.builtin == io.mpirunj.Op.PROD) {
            complexProduct(type.unit, a, b, n / 2);
            return;
        }
        switch (type.unit) {
            case CHAR:
            case SHORT:
                for (int i = 0; i < n; i++) {
                    boolean unsigned = type.unit == Datatype.Unit.CHAR;
                    int x = unsigned ? a.getChar(2 * i) : a.getShort(2 * i);
                    int y = unsigned ? b.getChar(2 * i) : b.getShort(2 * i);
                    b.putShort(2 * i, (short) Reductions.combine(op.builtin, y, x));
                }
                return;
            default:
                io.mpirunj.ElementType et = type.unit.wireType();
                op.builtin.apply(Buffer.of(a, et), Buffer.of(b, et));
        }
    }

    /** MAXLOC/MINLOC over {@code pairs} (value, index) structs; ties keep the smaller index. */
    private static void location(boolean max, Datatype.Unit unit, ByteBuffer a, ByteBuffer b, int pairs) {
        int stride = unit == Datatype.Unit.INT ? 8 : unit.bytes;
        int indexAt = unit == Datatype.Unit.LONG_INT || unit == Datatype.Unit.DOUBLE_INT ? 8 : 4;
        for (int i = 0; i < pairs; i++) {
            int p = i * stride;
            int c = compareValues(unit, a, b, p);
            int ia = a.getInt(p + indexAt);
            int ib = b.getInt(p + indexAt);
            boolean takeIn = max ? c > 0 : c < 0;
            if (takeIn) {
                b.put(p, a.array(), a.arrayOffset() + p, indexAt); // the value
                b.putInt(p + indexAt, ia);
            } else if (c == 0) {
                b.putInt(p + indexAt, Math.min(ia, ib));
            }
        }
    }

    private static int compareValues(Datatype.Unit unit, ByteBuffer a, ByteBuffer b, int p) {
        switch (unit) {
            case SHORT_INT: return Short.compare(a.getShort(p), b.getShort(p));
            case LONG_INT: return Long.compare(a.getLong(p), b.getLong(p));
            case FLOAT_INT: return Float.compare(a.getFloat(p), b.getFloat(p));
            case DOUBLE_INT: return Double.compare(a.getDouble(p), b.getDouble(p));
            default: return Integer.compare(a.getInt(p), b.getInt(p));
        }
    }

    private static void complexProduct(Datatype.Unit unit, ByteBuffer a, ByteBuffer b, int n) {
        for (int i = 0; i < n; i++) {
            if (unit == Datatype.Unit.FLOAT) {
                float ar = a.getFloat(8 * i), ai = a.getFloat(8 * i + 4);
                float br = b.getFloat(8 * i), bi = b.getFloat(8 * i + 4);
                b.putFloat(8 * i, ar * br - ai * bi);
                b.putFloat(8 * i + 4, ar * bi + ai * br);
            } else {
                double ar = a.getDouble(16 * i), ai = a.getDouble(16 * i + 8);
                double br = b.getDouble(16 * i), bi = b.getDouble(16 * i + 8);
                b.putDouble(16 * i, ar * br - ai * bi);
                b.putDouble(16 * i + 8, ar * bi + ai * br);
            }
        }
    }

    /** The {@code count} elements of {@code type} in the little-endian buffer {@code b}, as a Java array. */
    static Object toArray(ByteBuffer b, int count, Datatype type) {
        ByteBuffer d = b.duplicate().order(LE);
        d.position(0);
        int n = count * type.units;
        switch (type.unit) {
            case CHAR: { char[] a = new char[n]; d.asCharBuffer().get(a); return a; }
            case SHORT: { short[] a = new short[n]; d.asShortBuffer().get(a); return a; }
            case BOOLEAN: {
                boolean[] a = new boolean[n];
                for (int i = 0; i < n; i++) {
                    a[i] = d.get(i) != 0;
                }
                return a;
            }
            case INT: { int[] a = new int[n]; d.asIntBuffer().get(a); return a; }
            case LONG: { long[] a = new long[n]; d.asLongBuffer().get(a); return a; }
            case FLOAT: { float[] a = new float[n]; d.asFloatBuffer().get(a); return a; }
            case DOUBLE: { double[] a = new double[n]; d.asDoubleBuffer().get(a); return a; }
            default: { byte[] a = new byte[n * type.unit.bytes]; d.get(a); return a; }
        }
    }

    /** Writes an array made by {@link #toArray} back into {@code b}. */
    static void fromArray(Object a, ByteBuffer b, int count, Datatype type) {
        ByteBuffer d = b.duplicate().order(LE);
        d.position(0);
        int n = count * type.units;
        switch (type.unit) {
            case CHAR: d.asCharBuffer().put((char[]) a, 0, n); break;
            case SHORT: d.asShortBuffer().put((short[]) a, 0, n); break;
            case BOOLEAN:
                for (int i = 0; i < n; i++) {
                    d.put(i, ((boolean[]) a)[i] ? (byte) 1 : 0);
                }
                break;
            case INT: d.asIntBuffer().put((int[]) a, 0, n); break;
            case LONG: d.asLongBuffer().put((long[]) a, 0, n); break;
            case FLOAT: d.asFloatBuffer().put((float[]) a, 0, n); break;
            case DOUBLE: d.asDoubleBuffer().put((double[]) a, 0, n); break;
            default: d.put((byte[]) a, 0, n * type.unit.bytes); break;
        }
    }
}
