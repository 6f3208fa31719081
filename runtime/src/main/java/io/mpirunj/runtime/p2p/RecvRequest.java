package io.mpirunj.runtime.p2p;

import io.mpirunj.Buffer;
import io.mpirunj.Status;

/**
 * A receive in flight. The match fields are written under the engine lock when a message is
 * matched, before the request is published to the thread that delivers the data.
 */
final class RecvRequest extends RequestImpl {
    final Buffer buf;
    /** World rank or {@link P2pEngine#ANY}. */
    final int srcWorld;
    final int context;
    /** Tag or {@link P2pEngine#ANY}. */
    final int tag;
    final Group group;

    /** Posting order at this rank (set when queued), for choosing between source and ANY_SOURCE receives. */
    long postOrder;
    int matchedSrcWorld = -1;
    int matchedTag;
    int messageBytes;

    RecvRequest(Buffer buf, int srcWorld, int context, int tag, Group group, WaitPolicy waiting) {
        super(waiting);
        this.buf = buf;
        this.srcWorld = srcWorld;
        this.context = context;
        this.tag = tag;
        this.group = group;
    }

    boolean matches(int src, int ctx, int t) {
        return context == ctx && (srcWorld == P2pEngine.ANY || srcWorld == src) && (tag == P2pEngine.ANY || tag == t);
    }

    void matched(int src, int t, int bytes) {
        matchedSrcWorld = src;
        matchedTag = t;
        messageBytes = bytes;
    }

    @Override
    protected Status successStatus() {
        return new Status(group.rankOf(matchedSrcWorld), matchedTag, messageBytes, buf.type().bytes());
    }

    @Override
    public String toString() {
        String from = srcWorld == P2pEngine.ANY ? "ANY_SOURCE"
                : "rank " + group.rankOf(srcWorld) + " (world " + srcWorld + ")";
        return "receive from " + from + ", tag " + (tag == P2pEngine.ANY ? "ANY_TAG" : String.valueOf(tag))
                + ", context " + context;
    }
}
