package io.mpirunj.runtime;

/**
 * Where a rank's runtime reads the time: waits, timeouts and {@code Comm.wtime}. Injectable
 * ({@link RuntimeConfig#withClock}) so an emulated fabric can run the engine against its own time
 * and delay frames (in a transport decorator) without touching matching.
 */
@FunctionalInterface
public interface NanoClock {
    /** The system's monotonic clock. */
    NanoClock SYSTEM = System::nanoTime;

    /** Nanoseconds from an arbitrary origin, monotonic, as {@link System#nanoTime()}. */
    long nanoTime();
}
