package io.mpirunj.collectives.runner;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Request;
import io.mpirunj.runtime.RankContext;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveRegistry;

/**
 * A {@link CollChannel} on a communicator's ordinary point-to-point context, so tests can run the
 * runner (or one algorithm object) directly, on a channel they can wrap. Use a {@link Comm#dup()}
 * when other traffic is about.
 */
final class CommChannel implements CollChannel {
    private final Comm comm;

    CommChannel(Comm comm) {
        this.comm = comm;
    }

    @Override
    public int rank() {
        return comm.rank();
    }

    @Override
    public int size() {
        return comm.size();
    }

    @Override
    public Comm comm() {
        return comm;
    }

    @Override
    public Request isend(Buffer buf, int dest, int tag) {
        return comm.isend(buf, dest, tag);
    }

    @Override
    public Request irecv(Buffer buf, int source, int tag) {
        return comm.irecv(buf, source, tag);
    }

    @Override
    public CollectiveRegistry registry() {
        return RankContext.current().registry();
    }
}
