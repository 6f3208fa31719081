package io.mpirunj.runtime.transport;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * A transport between processes: it listens at an address the launcher's rendezvous publishes to
 * the other ranks, and learns theirs before the first send.
 */
public interface NetworkTransport extends Transport {
    /** The address other ranks should connect to. */
    InetSocketAddress advertisedAddress();

    /** Every rank's advertised address, indexed by world rank; called once, before the first send. */
    void setPeerAddresses(List<InetSocketAddress> addresses);

    /** Runs {@code hook} at the end of {@link #close()} (e.g. closing the rendezvous client). */
    void addCloseHook(Runnable hook);

    /**
     * Someone else (the launcher) reports {@code peer} dead: stop waiting for it (also in
     * {@link #close()}) and fail later sends to it with {@code cause}. Any thread.
     */
    default void abandonPeer(int peer, Throwable cause) {
    }
}
