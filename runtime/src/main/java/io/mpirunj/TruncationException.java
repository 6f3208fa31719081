package io.mpirunj;

/**
 * A message was larger than the buffer posted to receive it (MPI_ERR_TRUNCATE). The message has
 * been consumed; the receive buffer holds its first {@code bufferBytes} bytes.
 */
public class TruncationException extends MpiException {
    /** A message too large for its receive buffer. */
    public TruncationException(String message) {
        super(message);
    }
}
