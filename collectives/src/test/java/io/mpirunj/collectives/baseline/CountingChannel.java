package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.testing.ForwardingChannel;
import io.mpirunj.runtime.spi.CollChannel;
import java.util.concurrent.atomic.AtomicInteger;

/** A channel that counts the messages it is asked to send (into a counter the ranks share). */
public final class CountingChannel extends ForwardingChannel {
    private final AtomicInteger sends;

    public CountingChannel(CollChannel inner, AtomicInteger sends) {
        super(inner);
        this.sends = sends;
    }

    @Override
    public Request isend(Buffer buf, int dest, int tag) {
        sends.incrementAndGet();
        return inner.isend(buf, dest, tag);
    }
}
