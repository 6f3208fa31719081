package io.mpirunj;

/** The job was aborted (by {@link Comm#abort(int)} on some rank, a timeout, or the launcher). */
public class AbortedException extends MpiException {
    private final int exitCode;

    public AbortedException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}
