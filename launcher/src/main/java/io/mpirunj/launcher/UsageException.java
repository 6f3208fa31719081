package io.mpirunj.launcher;

/**
 * Bad input found before anything was started: the launcher prints the message as one line on
 * stderr and exits with {@link #EXIT_CODE}.
 */
final class UsageException extends Exception {
    /** Exit status for every usage error (picocli's {@code ExitCode.USAGE}). */
    static final int EXIT_CODE = 2;

    UsageException(String message) {
        super(message);
    }
}
