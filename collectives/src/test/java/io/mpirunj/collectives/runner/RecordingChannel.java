package io.mpirunj.collectives.runner;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.testing.ForwardingChannel;
import io.mpirunj.runtime.spi.CollChannel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Wraps a channel and records every send and receive it is asked for, in the order asked. */
final class RecordingChannel extends ForwardingChannel {

    /** One operation: {@code peer} is the destination of a send or the source of a receive. */
    record Op(boolean send, int peer, int bytes, int tag) {
    }

    private final List<Op> ops = Collections.synchronizedList(new ArrayList<>());
    private final List<Request> requests = Collections.synchronizedList(new ArrayList<>());

    RecordingChannel(CollChannel inner) {
        super(inner);
    }

    List<Op> ops() {
        synchronized (ops) {
            return List.copyOf(ops);
        }
    }

    List<Op> sends() {
        return ops().stream().filter(Op::send).toList();
    }

    /** How many of the requests handed out have not completed. */
    int pending() {
        synchronized (requests) {
            return (int) requests.stream().filter(r -> !r.test()).count();
        }
    }

    private Request track(Request r) {
        requests.add(r);
        return r;
    }




    @Override
    public Request isend(Buffer buf, int dest, int tag) {
        ops.add(new Op(true, dest, buf.byteLength(), tag));
        return track(inner.isend(buf, dest, tag));
    }

    @Override
    public Request irecv(Buffer buf, int source, int tag) {
        ops.add(new Op(false, source, buf.byteLength(), tag));
        return track(inner.irecv(buf, source, tag));
    }

}
