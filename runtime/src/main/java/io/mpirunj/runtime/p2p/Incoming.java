package io.mpirunj.runtime.p2p;

import io.netty.buffer.ByteBuf;

/**
 * A message that arrived before its receive was posted: an eager payload, or (payload null) an RTS's
 * announcement of message {@code sendId}. {@code arrival} is its arrival order at this rank, across
 * sources, for ANY_SOURCE matching. Queues find and remove one by identity: the record's {@code equals}
 * would compare the payload's bytes.
 */
record Incoming(long arrival, int src, int context, int tag, int length, ByteBuf payload, long sendId) {
    boolean isRts() {
        return payload == null;
    }
}
