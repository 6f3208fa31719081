package io.mpirunj.runtime.p2p;

import io.netty.buffer.ByteBuf;

/**
 * A message that arrived before its receive was posted: an eager payload, or (payload null) an RTS's
 * announcement of message {@code sendId}. {@code arrival} is its arrival order at this rank, across
 * sources, for ANY_SOURCE matching; being unique, and the first component, it settles {@code equals}
 * (as used by {@code ArrayDeque.removeFirstOccurrence}) before the payload's bytes would be compared.
 */
record Incoming(long arrival, int src, int context, int tag, int length, ByteBuf payload, long sendId) {
    boolean isRts() {
        return payload == null;
    }
}
