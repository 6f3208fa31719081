package io.mpirunj.runtime.fabric;

/**
 * Decides when each message of an emulated fabric arrives: {@link FabricArbiter} in this JVM (ranks as
 * threads, and the launcher's {@link ArbiterService}), or {@link RemoteArbiter}, a rank process's client
 * of that service.
 */
interface MessageArbiter extends AutoCloseable {
    /** Sends a {@code bytes}-byte message from world rank {@code src} to {@code dst} now; {@code outcome} hears how it ends. */
    void submit(int src, int dst, long bytes, FabricArbiter.Outcome outcome);

    /**
     * As above for a message its sender sent at {@code sentAt} on its own clock (model time x the scale,
     * ns); {@code data}: the message is a rendezvous DATA frame (its loss breaks the pair).
     */
    void submit(int src, int dst, long bytes, boolean data, long sentAt, FabricArbiter.Outcome outcome);

    @Override
    void close();
}
