package mpi;

import java.nio.ByteBuffer;

/**
 * The function of a user-defined {@link Op}: combine {@code inVec} into {@code inOutVec} element by
 * element, {@code inOutVec[i] = inVec[i] op inOutVec[i]}. Override either form. A function that overrides the
 * array form gets arrays when the call's buffers are arrays, and for NIO buffers the byte-buffer form, which by
 * default passes arrays to the array form. A function that overrides only the byte-buffer form gets byte buffers
 * whatever the call's buffers are (as in Open MPI, whose bindings call that form for every type but BOOLEAN).
 */
public abstract class UserFunction {
    /**
     * Combines arrays of the datatype's Java type ({@code int[]} for INT and INT2, {@code double[]} for
     * DOUBLE and DOUBLE_COMPLEX, ..., {@code byte[]} for the other pair types), each holding
     * {@code count} elements of {@code datatype}.
     */
    public void call(Object inVec, Object inOutVec, int count, Datatype datatype) {
        throw new UnsupportedOperationException("the UserFunction " + getClass().getName() + " overrides neither "
                + "call(Object, Object, int, Datatype) nor call(ByteBuffer, ByteBuffer, int, Datatype)");
    }

    /**
     * Combines little-endian byte buffers holding {@code count} elements of {@code datatype}. By default
     * converts them to arrays, calls {@link #call(Object, Object, int, Datatype)} and writes the result
     * back into {@code inOut}.
     */
    public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype datatype) {
        Object a = Combiner.toArray(in, count, datatype);
        Object b = Combiner.toArray(inOut, count, datatype);
        call(a, b, count, datatype);
        Combiner.fromArray(b, inOut, count, datatype);
    }
}
