package io.mpirunj.runtime.p2p;

import io.mpirunj.Buffer;
import io.mpirunj.Status;

/** A send in flight. Fields are fixed at creation. */
final class SendRequest extends RequestImpl {
    final Buffer buf;
    final int dstWorld;
    final int context;
    final int tag;
    final Group group;

    SendRequest(Buffer buf, int dstWorld, int context, int tag, Group group, WaitPolicy waiting) {
        super(waiting);
        this.buf = buf;
        this.dstWorld = dstWorld;
        this.context = context;
        this.tag = tag;
        this.group = group;
    }

    @Override
    protected Status successStatus() {
        return new Status(group.rankOf(dstWorld), tag, buf.byteLength(), buf.type().bytes());
    }

    @Override
    public String toString() {
        return "send of " + buf.byteLength() + " bytes to rank " + group.rankOf(dstWorld) + " (world " + dstWorld
                + "), tag " + tag + ", context " + context;
    }
}
