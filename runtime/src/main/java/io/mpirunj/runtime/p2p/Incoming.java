package io.mpirunj.runtime.p2p;

import io.netty.buffer.ByteBuf;

/** A message that arrived before its receive was posted: an eager payload, or an RTS's announcement. */
final class Incoming {
    final int src;
    final int context;
    final int tag;
    final int length;
    final ByteBuf payload; // EAGER
    final long sendId; // RTS
    /** Arrival order at this rank, across sources (set when queued), for ANY_SOURCE matching. */
    long arrival;

    Incoming(int src, int context, int tag, int length, ByteBuf payload, long sendId) {
        this.src = src;
        this.context = context;
        this.tag = tag;
        this.length = length;
        this.payload = payload;
        this.sendId = sendId;
    }

    boolean isRts() {
        return payload == null;
    }

    boolean hasTag(int t) {
        return t == P2pEngine.ANY || t == tag;
    }
}
