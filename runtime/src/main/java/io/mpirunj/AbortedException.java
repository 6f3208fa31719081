package io.mpirunj;

/** The job was aborted (by {@link Comm#abort(int)} on some rank, a timeout, or the launcher). */
public class AbortedException extends MpiException {
    private final int exitCode;

    /** An abort with the exit code the job ends with. */
    public AbortedException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    /** The exit code the job ends with. */
    public int exitCode() {
        return exitCode;
    }
}
