package mpi;

/**
 * A reduction operation: one of the predefined ones of {@link MPI}, or one made from a
 * {@link UserFunction}. Predefined operations (except MINLOC and MAXLOC) on INT, LONG, FLOAT, DOUBLE,
 * BYTE and BOOLEAN data run on the runtime's pluggable reductions; for the others the runtime moves
 * every rank's contribution and each rank folds them in rank order (see {@code Reduce}), which a
 * non-commutative operation needs.
 */
public final class Op extends NamedHandle implements Freeable {
    /** The runtime's operator, or null for MINLOC, MAXLOC and user functions. */
    final io.mpirunj.Op builtin;
    /** MINLOC or MAXLOC. */
    final String loc;
    final UserFunction function;
    /**
     * True when {@link #function} overrides the array form of {@link UserFunction#call}: it gets arrays for array
     * data. One that overrides only the byte-buffer form gets byte buffers for all data, as in Open MPI, whose
     * bindings call that form for every type but BOOLEAN.
     */
    final boolean arrayForm;
    private final boolean commute;

    /**
     * A predefined operation by name: the runtime's operator of that name, or MINLOC/MAXLOC. (No
     * runtime type in the signature: javac sees every constructor when a program says {@code new Op}.)
     */
    Op(String name) {
        this(name, null, true);
    }

    /** A user-defined operation (MPI_OP_CREATE). */
    public Op(UserFunction function, boolean commute) {
        this(null, requireFunction(function), commute);
    }

    /** A predefined operation by {@code name}, or (name null) the user's {@code function}. */
    private Op(String name, UserFunction function, boolean commute) {
        super(name != null ? name : "user op");
        boolean location = "MINLOC".equals(name) || "MAXLOC".equals(name);
        this.builtin = name == null || location ? null : io.mpirunj.Op.valueOf(name);
        this.loc = location ? name : null;
        this.function = function;
        this.arrayForm = function != null && overrides(function, Object.class);
        this.commute = commute;
    }

    /** True when {@code function}'s class overrides {@code call(first, first, int, Datatype)}. */
    private static boolean overrides(UserFunction function, Class<?> first) {
        try {
            return function.getClass().getMethod("call", first, first, int.class, Datatype.class)
                    .getDeclaringClass() != UserFunction.class;
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e); // UserFunction declares it
        }
    }

    private static UserFunction requireFunction(UserFunction function) {
        if (function == null) {
            throw new MPIException("new Op: the user function is null", null, MPI.ERR_OP);
        }
        return function;
    }

    public boolean isCommutative() {
        return commute;
    }
}
