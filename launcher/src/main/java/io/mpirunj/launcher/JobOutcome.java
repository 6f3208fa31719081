package io.mpirunj.launcher;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The exit status of a job: 0 until some rank fails, then the first failure's code. Later failures
 * (usually consequences of the first: peers of a dead rank, ranks being stopped) never change it.
 * Thread-safe.
 */
final class JobOutcome {
    /** What ended the job: the first rank to fail, its exit code and why. */
    record Failure(int rank, int exitCode, String reason) {
    }

    private final AtomicReference<Failure> first = new AtomicReference<>();

    /**
     * Records a failure of {@code rank}. Returns true if it is the first, i.e. the one that decides
     * the exit status and the caller should stop the other ranks.
     */
    boolean fail(int rank, int exitCode, String reason) {
        return first.compareAndSet(null, new Failure(rank, exitCode, reason));
    }

    boolean failed() {
        return first.get() != null;
    }

    /** 0 if no rank failed, else the first failure's exit code as an exit status ({@link ExitCodes#ofCode}). */
    int exitCode() {
        Failure f = first.get();
        return f == null ? ExitCodes.OK : ExitCodes.ofCode(f.exitCode());
    }
}
