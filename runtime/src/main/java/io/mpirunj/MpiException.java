package io.mpirunj;

/**
 * Base of every error the runtime reports. Unchecked: MPI errors are fatal to the operation that
 * raised them, and the message says which rank, communicator and call were involved.
 */
public class MpiException extends RuntimeException {
    /** An error with its description. */
    public MpiException(String message) {
        super(message);
    }

    /** An error with its description and cause. */
    public MpiException(String message, Throwable cause) {
        super(message, cause);
    }
}
