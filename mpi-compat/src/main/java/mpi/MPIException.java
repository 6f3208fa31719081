package mpi;

import java.util.function.Supplier;

/**
 * An error reported by an MPI call. Unlike Open MPI's (checked) {@code MPIException}, this one is
 * unchecked, as in MVAPICH2-J: code written for either flavour compiles, with or without
 * {@code throws MPIException} clauses. The message names the call that failed.
 */
public class MPIException extends RuntimeException {
    private final int errorClass;

    public MPIException(String message) {
        this(message, null);
    }

    public MPIException(Throwable cause) {
        this(cause.getMessage(), cause);
    }

    public MPIException(String message, Throwable cause) {
        this(message, cause, classify(cause));
    }

    MPIException(String message, Throwable cause, int errorClass) {
        super(message, cause);
        this.errorClass = errorClass;
    }

    private static int classify(Throwable cause) {
        if (cause instanceof io.mpirunj.TruncationException) {
            return MPI.ERR_TRUNCATE;
        }
        if (cause instanceof IndexOutOfBoundsException) {
            return MPI.ERR_BUFFER;
        }
        return MPI.ERR_OTHER;
    }

    /** The error code (here always equal to the error class). */
    public final int getErrorCode() {
        return errorClass;
    }

    /** The MPI error class: {@link MPI#ERR_TRUNCATE}, {@link MPI#ERR_BUFFER}, {@link MPI#ERR_OTHER}, .... */
    public final int getErrorClass() {
        return errorClass;
    }

    /** Runs {@code body}; a failure of the runtime below it is rethrown by {@link #of}, naming {@code call}. */
    static <T> T naming(String call, Supplier<T> body) {
        try {
            return body.get();
        } catch (RuntimeException e) {
            throw of(call, e);
        }
    }

    /** As {@link #naming(String, Supplier)} for a body without a result. */
    static void naming(String call, Runnable body) {
        naming(call, () -> {
            body.run();
            return null;
        });
    }

    /** Wraps a failure of the runtime below, naming the MPI call it happened in. */
    static MPIException of(String call, RuntimeException e) {
        if (e instanceof MPIException) {
            return (MPIException) e;
        }
        return new MPIException(call + ": " + e.getMessage(), e);
    }
}
