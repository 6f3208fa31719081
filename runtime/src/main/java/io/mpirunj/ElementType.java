package io.mpirunj;

/**
 * The element types a {@link Buffer} can hold. Typed arrays travel little-endian on the wire, so
 * ranks on the same kind of machine copy them in bulk.
 */
public enum ElementType {
    BYTE(1), INT(4), LONG(8), FLOAT(4), DOUBLE(8);

    private final int bytes;

    ElementType(int bytes) {
        this.bytes = bytes;
    }

    /** Size of one element in bytes. */
    public int bytes() {
        return bytes;
    }

    /** True for the integer types, on which the bitwise reduction operators are defined. */
    public boolean isInteger() {
        return this == BYTE || this == INT || this == LONG;
    }
}
