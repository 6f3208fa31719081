package io.mpirunj;

/**
 * Reduction operators for {@link Comm#reduce} and {@link Comm#allreduce}. All are associative and
 * commutative. Logical operators treat non-zero as true and produce 1 or 0; bitwise operators are
 * defined on the integer types only.
 */
public enum Op {
    SUM, PROD, MIN, MAX, LAND, LOR, LXOR, BAND, BOR, BXOR;

    /** True for BAND, BOR, BXOR. */
    public boolean isBitwise() {
        return this == BAND || this == BOR || this == BXOR;
    }

    /**
     * Combines element-wise: {@code inout[i] = inout[i] (op) in[i]}. Both buffers must have the same
     * element type and count.
     *
     * @throws IllegalArgumentException for a bitwise operator on FLOAT or DOUBLE, or mismatched buffers
     */
    public void apply(Buffer in, Buffer inout) {
        io.mpirunj.runtime.reduce.Reductions.apply(this, in, inout);
    }
}
