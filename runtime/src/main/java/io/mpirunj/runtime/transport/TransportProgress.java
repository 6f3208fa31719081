package io.mpirunj.runtime.transport;

import java.util.function.BooleanSupplier;

/**
 * A transport whose I/O the waiting thread can drive itself, as MPI implementations do: a rank
 * blocked in {@code recv}, {@code wait} or a collective reads its sockets, matches and writes on its
 * own thread instead of handing the work to an event loop and parking until woken.
 *
 * <p>Only one thread drives at a time (it holds the transport's progress token). A thread that
 * cannot get it (another waiting thread drives) waits passively, between
 * {@link #beginPassiveWait()} and {@link #endPassiveWait()}, and is woken by whoever completes
 * what it waits for.
 */
public interface TransportProgress {
    /**
     * Makes the calling thread the driver: true if it now is (then it must call
     * {@link #exitDriving()}); false if another waiting thread drives or the transport is stopping.
     * A helper thread that drives while nobody waits hands over at once.
     *
     * @throws IllegalStateException if the calling thread drives already (a wait inside a callback
     *     of the transport, which could never end)
     */
    boolean enterDriving();

    /**
     * Runs the I/O and tasks that are ready; if there were none, blocks up to {@code blockNanos}
     * (0: not at all) in the kernel until there are, or until {@code stop} is true (whoever makes it
     * true from another thread calls {@link #wakeup()}). Only between enter and exit. Returns how many
     * I/O events and tasks it handled (0: none were ready), or -1 if the transport is stopping (the
     * caller exits and waits passively).
     */
    int driveOnce(long blockNanos, BooleanSupplier stop);

    /** Stops driving; another thread (a passive waiter's helper) takes over when needed. */
    void exitDriving();

    /** Wakes the driver if it is blocked in {@link #driveOnce}; any thread, cheap when it is not. */
    void wakeup();

    /** The calling thread waits without driving: someone else must drive meanwhile. */
    void beginPassiveWait();

    void endPassiveWait();

    /**
     * Runs {@code wait}, a wait for something other than {@code io}'s own I/O (futures, the launcher), between
     * {@link #beginPassiveWait} and {@link #endPassiveWait}, so the transport keeps progressing meanwhile;
     * {@code io} null (a transport nobody drives) runs it as it is.
     */
    static <T> T waitPassively(TransportProgress io, java.util.function.Supplier<T> wait) {
        if (io == null) {
            return wait.get();
        }
        io.beginPassiveWait();
        try {
            return wait.get();
        } finally {
            io.endPassiveWait();
        }
    }
}
