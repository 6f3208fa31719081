package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Request;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import java.util.concurrent.atomic.AtomicInteger;

/** A channel that counts the messages it is asked to send (into a counter the ranks share). */
final class CountingChannel implements CollChannel {
    private final CollChannel inner;
    private final AtomicInteger sends;

    CountingChannel(CollChannel inner, AtomicInteger sends) {
        this.inner = inner;
        this.sends = sends;
    }

    @Override
    public int rank() {
        return inner.rank();
    }

    @Override
    public int size() {
        return inner.size();
    }

    @Override
    public Comm comm() {
        return inner.comm();
    }

    @Override
    public Request isend(Buffer buf, int dest, int tag) {
        sends.incrementAndGet();
        return inner.isend(buf, dest, tag);
    }

    @Override
    public Request irecv(Buffer buf, int source, int tag) {
        return inner.irecv(buf, source, tag);
    }

    @Override
    public CollectiveRegistry registry() {
        return inner.registry();
    }
}
