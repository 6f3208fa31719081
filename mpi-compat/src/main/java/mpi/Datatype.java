package mpi;

import io.mpirunj.ElementType;
import java.util.Locale;

/**
 * An MPI datatype: the predefined ones of {@link MPI} ({@code BYTE CHAR SHORT BOOLEAN INT LONG FLOAT
 * DOUBLE PACKED}, the pairs {@code INT2 SHORT_INT LONG_INT FLOAT_INT DOUBLE_INT}, the complex types)
 * and contiguous types made from them. An element of a datatype is a run of {@code units} of one
 * {@link Unit}, the thing a Java buffer holds (an {@code int} of an {@code int[]}, a {@code char} of a
 * {@code char[]}, or a pair struct in a byte buffer).
 *
 * <p>As in Open MPI's Java bindings, {@link #getExtent()} and {@link #getSize()} count base Java
 * elements (bytes for the pair structs), not bytes.
 */
public final class Datatype implements Freeable {
    /** What one base element of a buffer is, how many bytes it takes and how it travels. */
    enum Unit {
        BYTE(1, ElementType.BYTE),
        CHAR(2, null),
        SHORT(2, null),
        BOOLEAN(1, null),
        INT(4, ElementType.INT),
        LONG(8, ElementType.LONG),
        FLOAT(4, ElementType.FLOAT),
        DOUBLE(8, ElementType.DOUBLE),
        /** The pair structs, laid out as Open MPI's: value, then int index, padded to alignment. */
        SHORT_INT(8, null),
        LONG_INT(16, null),
        FLOAT_INT(8, null),
        DOUBLE_INT(16, null);

        final int bytes;
        /** The runtime's element type when one matches; null when the unit travels as bytes. */
        final ElementType elementType;

        Unit(int bytes, ElementType elementType) {
            this.bytes = bytes;
            this.elementType = elementType;
        }

        /** The element type of the runtime buffers that carry this unit. */
        ElementType wireType() {
            return elementType != null ? elementType : ElementType.BYTE;
        }

        boolean isStruct() {
            return ordinal() >= SHORT_INT.ordinal();
        }

        /** The Java array type that holds this unit: a byte array for the pair structs. */
        String javaType() {
            return isStruct() ? "byte[]" : name().toLowerCase(Locale.ROOT) + "[]";
        }
    }

    /** How reductions must see the elements. */
    enum Kind { PLAIN, PAIR, COMPLEX }

    final Unit unit;
    /** Units per element of this datatype. */
    final int units;
    final Kind kind;
    private final boolean predefined;
    private String name;

    Datatype(Unit unit, int units, Kind kind, String name, boolean predefined) {
        this.unit = unit;
        this.units = units;
        this.kind = kind;
        this.name = name;
        this.predefined = predefined;
    }

    /** Runtime buffer elements (of {@link Unit#wireType()}) one element of this datatype takes. */
    int wireElements() {
        return units * (unit.bytes / unit.wireType().bytes());
    }

    /** Bytes one element of this datatype takes. */
    int elementBytes() {
        return unit.bytes * units;
    }

    /** A datatype of {@code count} consecutive elements of {@code oldType} (MPI_TYPE_CONTIGUOUS). */
    public static Datatype createContiguous(int count, Datatype oldType) {
        if (count < 0) {
            throw new MPIException("Datatype.createContiguous: count=" + count + " (expected: >= 0)");
        }
        Kind kind = oldType.kind == Kind.PLAIN ? Kind.PLAIN : count == 1 ? oldType.kind : Kind.PLAIN;
        return new Datatype(oldType.unit, oldType.units * count, kind,
                "contiguous(" + count + ", " + oldType.name + ")", false);
    }

    /** Not supported: strided layouts (see the compatibility table in the README). */
    public static Datatype createVector(int count, int blockLength, int stride, Datatype oldType) {
        throw unsupported("Datatype.createVector");
    }

    /** Not supported: strided layouts (see the compatibility table in the README). */
    public static Datatype createHVector(int count, int blockLength, int stride, Datatype oldType) {
        throw unsupported("Datatype.createHVector");
    }

    /** Not supported: indexed layouts (see the compatibility table in the README). */
    public static Datatype createIndexed(int[] blockLengths, int[] displacements, Datatype oldType) {
        throw unsupported("Datatype.createIndexed");
    }

    /** Not supported: indexed layouts (see the compatibility table in the README). */
    public static Datatype createHIndexed(int[] blockLengths, int[] displacements, Datatype oldType) {
        throw unsupported("Datatype.createHIndexed");
    }

    /** Not supported: structs of mixed types (see the compatibility table in the README). */
    public static Datatype createStruct(int[] blockLengths, int[] displacements, Datatype[] types) {
        throw unsupported("Datatype.createStruct");
    }

    private static MPIException unsupported(String call) {
        return new MPIException(call + " is not supported by mpirun-j's mpi package (only predefined and "
                + "contiguous datatypes are)", null, MPI.ERR_UNSUPPORTED_OPERATION);
    }

    /** Extent in base elements (bytes for the pair structs), as Open MPI's bindings report it. */
    public int getExtent() {
        return unit.isStruct() ? units * unit.bytes : units;
    }

    public int getTrueExtent() {
        return getExtent();
    }

    public int getLb() {
        return 0;
    }

    public int getTrueLb() {
        return 0;
    }

    /** Size in base elements (bytes for the pair structs). */
    public int getSize() {
        return getExtent();
    }

    /** A datatype may be used without committing it here; committing is harmless. */
    public void commit() {
    }

    public Datatype dup() {
        return new Datatype(unit, units, kind, name, false);
    }

    @Override
    public void free() {
        if (predefined) {
            throw new MPIException("Datatype.free: " + name + " is predefined and cannot be freed");
        }
    }

    public boolean isNull() {
        return false;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    @Override
    public String toString() {
        return name;
    }
}
