package io.mpirunj.runtime.transport;

/**
 * Makes the transport of each rank of a job. Jobs get their factory from {@link Transports}, which
 * chooses it from configuration and applies the configured decorators, so a new transport (shared
 * memory) or a wrapper (live fabric emulation delaying frames) plugs in at one place.
 *
 * @param <T> what the factory makes: processes need more than {@link Transport} (an address to
 *     advertise and a table of the peers'), ranks as threads do not
 */
@FunctionalInterface
public interface TransportFactory<T extends Transport> {
    /** The transport of world rank {@code rank} of a job of {@code size} ranks, not yet started. */
    T create(int rank, int size);
}
