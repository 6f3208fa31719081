package io.mpirunj;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * A typed window on user memory: a Java primitive array with an element offset and count, or a
 * {@link ByteBuffer} (heap or direct) between its position and limit. Buffers never copy on
 * creation; the runtime reads and writes the memory they describe in place.
 *
 * <p>Typed arrays travel little-endian; a ByteBuffer's bytes travel as they are. A Buffer is a
 * cheap value: make one per call, e.g. {@code comm.send(Buffer.of(data), 1, 0)}.
 */
public final class Buffer {
    private static final ByteOrder WIRE_ORDER = ByteOrder.LITTLE_ENDIAN;

    private final ElementType type;
    /** byte[], int[], long[], float[] or double[]; null when backed by {@link #nio}. */
    private final Object array;
    /** Backing buffer when not array-backed; absolute positions only, never moved. */
    private final ByteBuffer nio;
    /** Element offset into {@link #array}, or byte offset into {@link #nio}. */
    private final int offset;
    private final int count;

    private Buffer(ElementType type, Object array, ByteBuffer nio, int offset, int count) {
        this.type = type;
        this.array = array;
        this.nio = nio;
        this.offset = offset;
        this.count = count;
    }

    /** The whole array, as byte elements. */
    public static Buffer of(byte[] a) {
        return of(a, 0, a.length);
    }

    /** {@code count} byte elements of the array from element {@code offset}. */
    public static Buffer of(byte[] a, int offset, int count) {
        return array(ElementType.BYTE, a, a.length, offset, count);
    }

    /** The whole array, as int elements. */
    public static Buffer of(int[] a) {
        return of(a, 0, a.length);
    }

    /** {@code count} int elements of the array from element {@code offset}. */
    public static Buffer of(int[] a, int offset, int count) {
        return array(ElementType.INT, a, a.length, offset, count);
    }

    /** The whole array, as long elements. */
    public static Buffer of(long[] a) {
        return of(a, 0, a.length);
    }

    /** {@code count} long elements of the array from element {@code offset}. */
    public static Buffer of(long[] a, int offset, int count) {
        return array(ElementType.LONG, a, a.length, offset, count);
    }

    /** The whole array, as float elements. */
    public static Buffer of(float[] a) {
        return of(a, 0, a.length);
    }

    /** {@code count} float elements of the array from element {@code offset}. */
    public static Buffer of(float[] a, int offset, int count) {
        return array(ElementType.FLOAT, a, a.length, offset, count);
    }

    /** The whole array, as double elements. */
    public static Buffer of(double[] a) {
        return of(a, 0, a.length);
    }

    /** {@code count} double elements of the array from element {@code offset}. */
    public static Buffer of(double[] a, int offset, int count) {
        return array(ElementType.DOUBLE, a, a.length, offset, count);
    }

    /** The bytes between {@code b}'s position and limit (heap or direct). */
    public static Buffer of(ByteBuffer b) {
        return of(b, ElementType.BYTE);
    }

    /**
     * The bytes between {@code b}'s position and limit, seen as elements of {@code type} in
     * {@code b}'s byte order (as {@code b.getInt} etc. read them). On the wire every typed element
     * travels little-endian, so ranks with different orders exchange values, not byte patterns.
     */
    public static Buffer of(ByteBuffer b, ElementType type) {
        Objects.requireNonNull(b, "buffer");
        int bytes = b.remaining();
        if (bytes % type.bytes() != 0) {
            throw new IllegalArgumentException("ByteBuffer remaining=" + bytes
                    + " is not a whole number of " + type + " elements (" + type.bytes() + " bytes each)");
        }
        return new Buffer(type, null, b, b.position(), bytes / type.bytes());
    }

    /** A fresh zeroed array buffer of {@code count} elements of {@code type}. */
    public static Buffer allocate(ElementType type, int count) {
        if (count < 0) {
            throw new IllegalArgumentException("count=" + count + " (expected: >= 0)");
        }
        Object a;
        switch (type) {
            case BYTE: a = new byte[count]; break;
            case INT: a = new int[count]; break;
            case LONG: a = new long[count]; break;
            case FLOAT: a = new float[count]; break;
            default: a = new double[count]; break;
        }
        return new Buffer(type, a, null, 0, count);
    }

    private static Buffer array(ElementType type, Object a, int length, int offset, int count) {
        Objects.requireNonNull(a, "array");
        if (offset < 0 || count < 0 || offset > length - count) {
            throw new IndexOutOfBoundsException("offset=" + offset + ", count=" + count
                    + " outside array of length " + length);
        }
        return new Buffer(type, a, null, offset, count);
    }

    /** The type of the elements. */
    public ElementType type() {
        return type;
    }

    /** Number of elements. */
    public int count() {
        return count;
    }

    /** Number of bytes this buffer covers: {@code count() * type().bytes()}. */
    public int byteLength() {
        return count * type.bytes();
    }

    /** The elements {@code [from, from + n)} of this buffer, sharing its memory. */
    public Buffer slice(int from, int n) {
        if (from < 0 || n < 0 || from > count - n) {
            throw new IndexOutOfBoundsException("slice from=" + from + ", count=" + n
                    + " outside buffer of " + count + " elements");
        }
        if (array != null) {
            return new Buffer(type, array, null, offset + from, n);
        }
        return new Buffer(type, null, nio, offset + from * type.bytes(), n);
    }

    /** A new array-backed buffer of the same type holding a copy of this buffer's elements. */
    public Buffer copy() {
        Buffer c = allocate(type, count);
        c.copyFrom(this);
        return c;
    }

    /** A new zeroed array-backed buffer of the same type with {@code n} elements. */
    public Buffer allocateLike(int n) {
        return allocate(type, n);
    }

    /** The backing array, or null when this buffer wraps a ByteBuffer. Internal use. */
    public Object array() {
        return array;
    }

    /** Element offset into {@link #array()}. Internal use. */
    public int arrayOffset() {
        return offset;
    }

    /**
     * For a ByteBuffer-backed buffer, a new view of exactly its bytes (position 0 = its first byte,
     * the backing buffer's byte order); null when array-backed. Internal use.
     */
    public ByteBuffer byteBuffer() {
        return nio == null ? null : nio.slice(offset, byteLength()).order(nio.order());
    }

    /**
     * True when this buffer and {@code other} share memory: views of one array whose element ranges meet, or of one
     * ByteBuffer whose byte ranges meet (views of a ByteBuffer made by the program, such as its slices, are not seen).
     * Internal use: a collective that cannot work in place copies its send buffer first.
     */
    public boolean overlaps(Buffer other) {
        if (array != null) {
            return array == other.array && offset < other.offset + other.count && other.offset < offset + count
                    && count > 0 && other.count > 0;
        }
        return nio != null && nio == other.nio && offset < other.offset + other.byteLength()
                && other.offset < offset + byteLength() && count > 0 && other.count > 0;
    }

    /** True when this buffer wraps a primitive array (rather than a ByteBuffer). */
    public boolean hasArray() {
        return array != null;
    }

    /**
     * Copies every byte of {@code src} into this buffer starting at byte 0. The two buffers must
     * have the same byte length; element types may differ (the bytes are reinterpreted).
     */
    public void copyFrom(Buffer src) {
        if (src.byteLength() != byteLength()) {
            throw new IllegalArgumentException("copy of " + src.byteLength() + " bytes into a buffer of "
                    + byteLength() + " bytes");
        }
        if (array != null && src.array != null && type == src.type) {
            System.arraycopy(src.array, src.offset, array, offset, count);
            return;
        }
        ByteBuffer tmp = ByteBuffer.allocate(src.byteLength());
        src.copyOut(0, tmp);
        tmp.flip();
        copyIn(0, tmp);
    }

    /**
     * Copies {@code dst.remaining()} bytes of this buffer, starting at byte {@code byteOffset},
     * into {@code dst} and advances its position. Offsets need not be element-aligned, so a
     * transport can stream a message in chunks of any size.
     */
    public void copyOut(int byteOffset, ByteBuffer dst) {
        int n = dst.remaining();
        checkRange(byteOffset, n);
        if (n == 0) {
            return;
        }
        if (nio != null && wireLayout()) {
            dst.put(nio.slice(offset + byteOffset, n));
            return;
        }
        if (type == ElementType.BYTE) {
            dst.put((byte[]) array, offset + byteOffset, n);
            return;
        }
        int size = type.bytes();
        int pos = byteOffset;
        int end = byteOffset + n;
        while (pos < end && pos % size != 0) { // head: a partial element
            dst.put(byteAt(pos));
            pos++;
        }
        int whole = (end - pos) / size;
        if (whole > 0 && nio != null) { // a typed ByteBuffer in big-endian order: convert each element
            ByteBuffer view = dst.slice().order(WIRE_ORDER);
            for (int i = 0; i < whole; i++) {
                putBits(view, i * size, bits(pos / size + i));
            }
            dst.position(dst.position() + whole * size);
            pos += whole * size;
        } else if (whole > 0) {
            ByteBuffer view = dst.slice().order(WIRE_ORDER);
            int e = offset + pos / size;
            switch (type) {
                case INT: view.asIntBuffer().put((int[]) array, e, whole); break;
                case LONG: view.asLongBuffer().put((long[]) array, e, whole); break;
                case FLOAT: view.asFloatBuffer().put((float[]) array, e, whole); break;
                default: view.asDoubleBuffer().put((double[]) array, e, whole); break;
            }
            dst.position(dst.position() + whole * size);
            pos += whole * size;
        }
        while (pos < end) { // tail
            dst.put(byteAt(pos));
            pos++;
        }
    }

    /**
     * Copies {@code src.remaining()} bytes from {@code src} into this buffer starting at byte
     * {@code byteOffset}, advancing src's position. Offsets need not be element-aligned.
     */
    public void copyIn(int byteOffset, ByteBuffer src) {
        int n = src.remaining();
        checkRange(byteOffset, n);
        if (n == 0) {
            return;
        }
        if (nio != null && wireLayout()) {
            nio.put(offset + byteOffset, src, src.position(), n);
            src.position(src.position() + n);
            return;
        }
        if (type == ElementType.BYTE) {
            src.get((byte[]) array, offset + byteOffset, n);
            return;
        }
        int size = type.bytes();
        int pos = byteOffset;
        int end = byteOffset + n;
        while (pos < end && pos % size != 0) {
            setByteAt(pos, src.get());
            pos++;
        }
        int whole = (end - pos) / size;
        if (whole > 0 && nio != null) { // a typed ByteBuffer in big-endian order: convert each element
            ByteBuffer view = src.slice().order(WIRE_ORDER);
            for (int i = 0; i < whole; i++) {
                setBits(pos / size + i, getBits(view, i * size));
            }
            src.position(src.position() + whole * size);
            pos += whole * size;
        } else if (whole > 0) {
            ByteBuffer view = src.slice().order(WIRE_ORDER);
            int e = offset + pos / size;
            switch (type) {
                case INT: view.asIntBuffer().get((int[]) array, e, whole); break;
                case LONG: view.asLongBuffer().get((long[]) array, e, whole); break;
                case FLOAT: view.asFloatBuffer().get((float[]) array, e, whole); break;
                default: view.asDoubleBuffer().get((double[]) array, e, whole); break;
            }
            src.position(src.position() + whole * size);
            pos += whole * size;
        }
        while (pos < end) {
            setByteAt(pos, src.get());
            pos++;
        }
    }

    private void checkRange(int byteOffset, int n) {
        if (byteOffset < 0 || n < 0 || byteOffset > byteLength() - n) {
            throw new IndexOutOfBoundsException("bytes [" + byteOffset + ", " + ((long) byteOffset + n)
                    + ") outside buffer of " + byteLength() + " bytes");
        }
    }

    /** True if this buffer's bytes are already laid out as on the wire (little-endian elements). */
    private boolean wireLayout() {
        return type == ElementType.BYTE || nio.order() == WIRE_ORDER;
    }

    private long getBits(ByteBuffer b, int at) {
        switch (type.bytes()) {
            case 8: return b.getLong(at);
            case 4: return b.getInt(at) & 0xFFFFFFFFL;
            default: return b.get(at) & 0xFFL;
        }
    }

    private void putBits(ByteBuffer b, int at, long v) {
        switch (type.bytes()) {
            case 8: b.putLong(at, v); break;
            case 4: b.putInt(at, (int) v); break;
            default: b.put(at, (byte) v); break;
        }
    }

    /** Raw bits of element i (relative to this buffer), as a value, independent of byte order. */
    private long bits(int i) {
        if (nio != null) {
            return getBits(nio, offset + i * type.bytes());
        }
        int e = offset + i;
        switch (type) {
            case INT: return ((int[]) array)[e] & 0xFFFFFFFFL;
            case LONG: return ((long[]) array)[e];
            case FLOAT: return Float.floatToRawIntBits(((float[]) array)[e]) & 0xFFFFFFFFL;
            case DOUBLE: return Double.doubleToRawLongBits(((double[]) array)[e]);
            default: return ((byte[]) array)[e] & 0xFFL;
        }
    }

    private void setBits(int i, long v) {
        if (nio != null) {
            putBits(nio, offset + i * type.bytes(), v);
            return;
        }
        int e = offset + i;
        switch (type) {
            case INT: ((int[]) array)[e] = (int) v; break;
            case LONG: ((long[]) array)[e] = v; break;
            case FLOAT: ((float[]) array)[e] = Float.intBitsToFloat((int) v); break;
            case DOUBLE: ((double[]) array)[e] = Double.longBitsToDouble(v); break;
            default: ((byte[]) array)[e] = (byte) v; break;
        }
    }

    private byte byteAt(int bytePos) {
        int size = type.bytes();
        return (byte) (bits(bytePos / size) >>> (8 * (bytePos % size)));
    }

    private void setByteAt(int bytePos, byte b) {
        int size = type.bytes();
        int i = bytePos / size;
        int shift = 8 * (bytePos % size);
        long v = bits(i) & ~(0xFFL << shift) | (b & 0xFFL) << shift;
        setBits(i, v);
    }

    @Override
    public String toString() {
        return "Buffer[" + type + " x " + count + (array != null ? ", array" : nio.isDirect() ? ", direct" : ", heap")
                + "]";
    }
}
