package io.mpirunj.runtime.p2p;

import io.mpirunj.runtime.transport.Frame;
import io.mpirunj.runtime.transport.FrameSink;
import io.mpirunj.runtime.transport.Transport;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * Rank 0's transport in a job of two, for an engine a test drives by hand (it delivers the peer's frames itself):
 * buffers on the heap, and what the engine sends is dropped as written. Tests override what they watch or break.
 */
class StubTransport implements Transport {
    @Override
    public int rank() {
        return 0;
    }

    @Override
    public int size() {
        return 2;
    }

    @Override
    public void start(FrameSink sink) {
    }

    @Override
    public ByteBuf allocate(int bytes) {
        return Unpooled.buffer(bytes);
    }

    @Override
    public void send(int dst, Frame frame, ByteBuf payload, WriteListener onWritten) {
        if (payload != null) {
            payload.release();
        }
        onWritten.onWritten(null);
    }

    @Override
    public void close() {
    }
}
