package io.mpirunj.runtime.p2p;

/**
 * Work beyond point-to-point that must advance while a rank waits, e.g. the next steps of
 * non-blocking collective schedules. Registered with {@link P2pEngine#addProgressHook}; run by the
 * threads waiting on the engine's requests (while they spin or yield, and about every millisecond
 * while parked) and by {@link P2pEngine#progress}.
 */
@FunctionalInterface
public interface ProgressHook {
    /**
     * Advances what it can without blocking; returns true if it did anything. May run on several
     * threads at once and re-entrantly from the engine's calls: it must be thread-safe and never wait.
     */
    boolean progress();
}
