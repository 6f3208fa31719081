package io.mpirunj.testing;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.runtime.spi.CollChannel;

/**
 * A channel that asks, before each send or receive a collective makes (numbered from 0), whether to
 * make it or hold it back: a held-back operation returns a request that never completes, so a test
 * can stop a rank at an exact point inside a collective (and then kill it).
 */
public abstract class GatedChannel extends ForwardingChannel {
    /** A tag no collective algorithm uses: a receive on it never completes. */
    private static final int NEVER = (1 << 16) - 7;

    private int next;

    protected GatedChannel(CollChannel inner) {
        super(inner);
    }

    /** True to make operation {@code index}; false to hold it back. */
    protected abstract boolean proceed(int index) throws InterruptedException;

    private synchronized boolean ask() {
        try {
            return proceed(next++);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private Request heldBack() {
        return inner.irecv(Buffer.of(new byte[0]), inner.rank(), NEVER);
    }

    @Override
    public Request isend(Buffer buf, int dest, int tag) {
        return ask() ? inner.isend(buf, dest, tag) : heldBack();
    }

    @Override
    public Request irecv(Buffer buf, int source, int tag) {
        return ask() ? inner.irecv(buf, source, tag) : heldBack();
    }
}
