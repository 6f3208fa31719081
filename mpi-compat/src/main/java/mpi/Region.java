package mpi;

import io.mpirunj.Buffer;
import io.mpirunj.ElementType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/**
 * One buffer argument of an MPI call, resolved against its datatype: which memory it is, how many
 * whole datatype elements it holds, and runtime {@link Buffer} views of element ranges.
 *
 * <p>Data starts at index 0 of the user's buffer, as in Open MPI's bindings: an NIO buffer's position
 * and limit are neither read nor changed, and its capacity bounds every access. Where the runtime can
 * address the memory in place (the arrays and byte buffers it knows) a view is zero-copy; otherwise
 * (char, short and boolean data, typed NIO buffers without an accessible array) the elements are
 * staged through a little-endian byte image: copied out when the view is made for reading, copied
 * back by {@link Landing#land()} after a receive.
 *
 * @param call          the MPI call, for messages
 * @param role          which of its buffers this is ("send", "receive", ...), for messages
 * @param type          the datatype the call gives for it
 * @param user          the user's buffer object
 * @param direct        a zero-copy view of every whole unit of the user's memory, or null when staged
 * @param capacityUnits the units of the datatype's {@link Datatype.Unit} the buffer holds from index 0
 */
record Region(String call, String role, Datatype type, Object user, Buffer direct, int capacityUnits) {
    static final ByteOrder WIRE = ByteOrder.LITTLE_ENDIAN;

    /** Where received data lands; {@link #land()} finishes a staged receive. */
    static class Landing {
        final Buffer buffer;

        Landing(Buffer buffer) {
            this.buffer = buffer;
        }

        void land() {
        }
    }

    static Region of(String call, String role, Object buf, Datatype type) {
        if (buf == null) {
            throw new MPIException(call + ": the " + role + " buffer is null", null, MPI.ERR_BUFFER);
        }
        if (type == null) {
            throw new MPIException(call + ": the " + role + " datatype is null", null, MPI.ERR_TYPE);
        }
        Datatype.Unit unit = type.unit;
        if (buf instanceof byte[]) {
            byte[] a = (byte[]) buf;
            if (unit.wireType() == ElementType.BYTE) { // raw bytes: the array itself, zero-copy
                return new Region(call, role, type, buf, Buffer.of(a), a.length / unit.bytes);
            }
            return ofBytes(call, role, type, buf, ByteBuffer.wrap(a).order(WIRE));
        }
        if (buf instanceof ByteBuffer) {
            ByteBuffer b = ((ByteBuffer) buf).duplicate().order(((ByteBuffer) buf).order());
            b.clear(); // index 0 to capacity: the user's position and limit do not count
            return ofBytes(call, role, type, buf, b);
        }
        Datatype.Unit typed = typedUnit(buf);
        if (typed != null) { // an array or NIO buffer of one primitive type: the datatype's must be it
            requireUnit(call, role, type, buf, typed);
            if (buf instanceof java.nio.Buffer) {
                java.nio.Buffer b = (java.nio.Buffer) buf; // index 0 to capacity, as for a byte buffer
                return new Region(call, role, type, buf,
                        b.hasArray() ? zeroCopyView(b.array(), b.arrayOffset(), b.capacity()) : null, b.capacity());
            }
            int length = java.lang.reflect.Array.getLength(buf);
            return new Region(call, role, type, buf, zeroCopyView(buf, 0, length), length);
        }
        throw new MPIException(call + ": the " + role + " buffer is a " + buf.getClass().getName()
                + " (expected: a primitive array or a java.nio buffer)", null, MPI.ERR_BUFFER);
    }

    /**
     * The hot path of point-to-point calls and bcast: elements {@code [0, n)} of a primitive array of
     * the datatype's own Java type ({@code byte[]} with BYTE, {@code int[]} with INT, ...), a zero-copy
     * view made with one allocation; null for every other buffer or an overrun, which {@link #of}
     * then handles (and reports). The view is exactly what {@code of(...).read(0, n)} or
     * {@code write(0, n)} would give.
     */
    static Buffer arrayView(Object buf, Datatype type, int n) {
        if (type == null || n < 0) {
            return null;
        }
        Datatype.Unit unit = type.unit;
        long units = (long) n * type.units;
        if (buf instanceof byte[] && unit == Datatype.Unit.BYTE) {
            byte[] a = (byte[]) buf;
            return units <= a.length ? Buffer.of(a, 0, (int) units) : null;
        }
        if (buf == null || !buf.getClass().isArray() || typedUnit(buf) != unit
                || units > java.lang.reflect.Array.getLength(buf)) {
            return null;
        }
        return zeroCopyView(buf, 0, (int) units);
    }

    /** A byte array or byte buffer: any datatype, its multi-byte elements read in the buffer's order. */
    private static Region ofBytes(String call, String role, Datatype type, Object user, ByteBuffer b) {
        Datatype.Unit unit = type.unit;
        int units = b.capacity() / unit.bytes;
        boolean twoByte = unit == Datatype.Unit.CHAR || unit == Datatype.Unit.SHORT;
        if (twoByte && b.order() != WIRE) {
            return new Region(call, role, type, user, null, units); // big-endian shorts: converted through a stage
        }
        ElementType wire = unit.wireType();
        b.limit(units * unit.bytes);
        return new Region(call, role, type, user, Buffer.of(b, wire), units);
    }

    /** The one primitive type of an array or NIO buffer other than bytes, or null. */
    private static Datatype.Unit typedUnit(Object buf) {
        return buf instanceof int[] || buf instanceof IntBuffer ? Datatype.Unit.INT
                : buf instanceof long[] || buf instanceof LongBuffer ? Datatype.Unit.LONG
                : buf instanceof float[] || buf instanceof FloatBuffer ? Datatype.Unit.FLOAT
                : buf instanceof double[] || buf instanceof DoubleBuffer ? Datatype.Unit.DOUBLE
                : buf instanceof short[] || buf instanceof ShortBuffer ? Datatype.Unit.SHORT
                : buf instanceof char[] || buf instanceof CharBuffer ? Datatype.Unit.CHAR
                : buf instanceof boolean[] ? Datatype.Unit.BOOLEAN
                : null;
    }

    /**
     * A zero-copy view of {@code n} elements of {@code array} from {@code offset}, for the element types the
     * runtime's buffers have (int, long, float, double); null for the others, which are staged.
     */
    private static Buffer zeroCopyView(Object array, int offset, int n) {
        return array instanceof int[] ? Buffer.of((int[]) array, offset, n)
                : array instanceof long[] ? Buffer.of((long[]) array, offset, n)
                : array instanceof float[] ? Buffer.of((float[]) array, offset, n)
                : array instanceof double[] ? Buffer.of((double[]) array, offset, n)
                : null;
    }

    private static void requireUnit(String call, String role, Datatype type, Object buf, Datatype.Unit expected) {
        if (type.unit != expected) {
            throw new MPIException(call + ": datatype " + type + " does not fit the " + role + " buffer, a "
                    + describe(buf) + " (expected a " + type.unit.javaType() + " or a byte buffer)", null,
                    MPI.ERR_TYPE);
        }
    }

    private static String describe(Object buf) {
        return buf.getClass().isArray() ? buf.getClass().getComponentType().getName() + "[]"
                : buf.getClass().getSimpleName();
    }

    /** Whole datatype elements the buffer holds from index 0. */
    int capacity() {
        return capacityUnits / Math.max(1, type.units);
    }

    private void check(int from, int n) {
        if (n < 0) {
            throw new MPIException(call + ": count " + n + " (expected: >= 0)", null, MPI.ERR_COUNT);
        }
        long end = (long) from + n;
        if (from < 0 || n < 0 || end * type.units > capacityUnits) {
            throw new MPIException(call + ": the " + role + " buffer holds " + capacity() + " elements of " + type
                    + " but the call needs elements [" + from + ", " + end + ")", null, MPI.ERR_BUFFER);
        }
    }

    /** Runtime view elements per unit: 1, or the unit's bytes when it travels as bytes. */
    private int scale() {
        return type.unit.bytes / type.unit.wireType().bytes();
    }

    /** The elements {@code [from, from + n)}, for sending (a staged buffer is copied now). */
    Buffer read(int from, int n) {
        check(from, n);
        int fu = from * type.units;
        int nu = n * type.units;
        if (direct != null) {
            return fu == 0 && nu * scale() == direct.count() ? direct : direct.slice(fu * scale(), nu * scale());
        }
        ByteBuffer img = ByteBuffer.allocate(nu * type.unit.bytes).order(WIRE);
        stageOut(fu, nu, img);
        return Buffer.of(img, type.unit.wireType());
    }

    /** Every element from index 0 up to the call's {@code n}. */
    Buffer read(int n) {
        return read(0, n);
    }

    /** Where the elements {@code [from, from + n)} are received. */
    Landing write(int from, int n) {
        check(from, n);
        int fu = from * type.units;
        int nu = n * type.units;
        if (direct != null) {
            return new Landing(direct.slice(fu * scale(), nu * scale()));
        }
        ByteBuffer img = ByteBuffer.allocate(nu * type.unit.bytes).order(WIRE);
        return new Landing(Buffer.of(img, type.unit.wireType())) {
            @Override
            void land() {
                stageIn(img, fu, nu);
            }
        };
    }

    /** The user's buffer as staging sees it: a short or char array as the NIO buffer over it, else itself. */
    private Object staged() {
        return user instanceof short[] s ? ShortBuffer.wrap(s) : user instanceof char[] c ? CharBuffer.wrap(c) : user;
    }

    /** Copies units {@code [from, from + n)} of the user's buffer into {@code img} (little-endian). */
    private void stageOut(int from, int n, ByteBuffer img) {
        Object u = staged();
        if (u instanceof boolean[]) {
            boolean[] a = (boolean[]) u;
            for (int i = 0; i < n; i++) {
                img.put(i, a[from + i] ? (byte) 1 : 0);
            }
        } else if (u instanceof ByteBuffer) { // a big-endian byte buffer of chars or shorts
            ByteBuffer b = (ByteBuffer) u;
            for (int i = 0; i < n; i++) {
                img.putShort(2 * i, b.getShort(2 * (from + i)));
            }
        } else {
            java.nio.Buffer b = (java.nio.Buffer) u;
            put(imageAs(b, img), b.slice(from, n));
        }
    }

    /** Copies {@code img} back into units {@code [from, from + n)} of the user's buffer. */
    private void stageIn(ByteBuffer img, int from, int n) {
        Object u = staged();
        try {
            if (u instanceof boolean[]) {
                boolean[] a = (boolean[]) u;
                for (int i = 0; i < n; i++) {
                    a[from + i] = img.get(i) != 0;
                }
            } else if (u instanceof ByteBuffer) {
                ByteBuffer b = (ByteBuffer) u;
                for (int i = 0; i < n; i++) {
                    b.putShort(2 * (from + i), img.getShort(2 * i));
                }
            } else {
                java.nio.Buffer b = (java.nio.Buffer) u;
                put(b.slice(from, n), imageAs(b, img));
            }
        } catch (java.nio.ReadOnlyBufferException e) {
            throw new MPIException(call + ": the " + role + " buffer is read-only", e, MPI.ERR_BUFFER);
        }
    }

    /** {@code img} seen as a buffer of the element type of {@code like}, a typed (not byte) NIO buffer. */
    private static java.nio.Buffer imageAs(java.nio.Buffer like, ByteBuffer img) {
        return like instanceof ShortBuffer ? img.asShortBuffer()
                : like instanceof CharBuffer ? img.asCharBuffer()
                : like instanceof IntBuffer ? img.asIntBuffer()
                : like instanceof LongBuffer ? img.asLongBuffer()
                : like instanceof FloatBuffer ? img.asFloatBuffer()
                : img.asDoubleBuffer();
    }

    /** Copies the elements of {@code src} into {@code dst}, typed NIO buffers of one element type. */
    private static void put(java.nio.Buffer dst, java.nio.Buffer src) {
        if (dst instanceof ShortBuffer d) {
            d.put((ShortBuffer) src);
        } else if (dst instanceof CharBuffer d) {
            d.put((CharBuffer) src);
        } else if (dst instanceof IntBuffer d) {
            d.put((IntBuffer) src);
        } else if (dst instanceof LongBuffer d) {
            d.put((LongBuffer) src);
        } else if (dst instanceof FloatBuffer d) {
            d.put((FloatBuffer) src);
        } else {
            ((DoubleBuffer) dst).put((DoubleBuffer) src);
        }
    }

    /** The bytes of {@code view} as they travel (little-endian elements). */
    static byte[] image(Buffer view) {
        byte[] img = new byte[view.byteLength()];
        view.copyOut(0, ByteBuffer.wrap(img));
        return img;
    }

    /** Writes an image made by {@link #image} back into {@code view}. */
    static void restore(byte[] img, Buffer view) {
        view.copyIn(0, ByteBuffer.wrap(img));
    }
}
