package io.mpirunj.testing;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Request;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveRegistry;

/**
 * A {@link CollChannel} that passes everything to another: the base of the tests' channel doubles
 * (recording, counting, losing links), which override only what they watch or break.
 */
public class ForwardingChannel implements CollChannel {
    protected final CollChannel inner;

    public ForwardingChannel(CollChannel inner) {
        this.inner = inner;
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

    @Override
    public RuntimeConfig config() {
        return inner.config();
    }
}
