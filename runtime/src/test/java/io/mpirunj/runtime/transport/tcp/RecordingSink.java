package io.mpirunj.runtime.transport.tcp;

import io.mpirunj.Buffer;
import io.mpirunj.runtime.transport.Frame;
import io.mpirunj.runtime.transport.FrameSink;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A FrameSink for tests: records every frame (payload bytes copied, buffer released), streams DATA
 * into the targets registered by recvId, and records peer failures. Also checks that frames of one
 * peer always arrive on one thread.
 */
final class RecordingSink implements FrameSink {
    /** A delivered frame: payload bytes for onFrame, null payload and streamed=true for onDataStreamed. */
    record Received(int src, Frame frame, byte[] payload, boolean streamed, String thread) {
    }

    record Failure(int peer, Throwable cause) {
    }

    final BlockingQueue<Received> frames = new LinkedBlockingQueue<>();
    final BlockingQueue<Failure> failures = new LinkedBlockingQueue<>();
    final Map<Long, Buffer> targets = new ConcurrentHashMap<>();
    private final Map<Integer, String> threadOfPeer = new ConcurrentHashMap<>();
    volatile String threadViolation;

    @Override
    public void onFrame(int src, Frame frame, ByteBuf payload) {
        byte[] bytes = null;
        if (payload != null) {
            try {
                bytes = ByteBufUtil.getBytes(payload);
            } finally {
                payload.release();
            }
        }
        frames.add(new Received(src, frame, bytes, false, checkThread(src)));
    }

    @Override
    public Buffer dataTarget(int src, Frame frame) {
        return targets.get(frame.recvId());
    }

    @Override
    public void onDataStreamed(int src, Frame frame) {
        frames.add(new Received(src, frame, null, true, checkThread(src)));
    }

    /** Peers that said goodbye and closed their connection here, in order. */
    final BlockingQueue<Integer> left = new LinkedBlockingQueue<>();

    @Override
    public void onPeerLeft(int peer) {
        left.add(peer);
    }

    @Override
    public void onPeerFailed(int peer, Throwable cause) {
        failures.add(new Failure(peer, cause));
    }

    private String checkThread(int src) {
        String name = Thread.currentThread().getName();
        String first = threadOfPeer.putIfAbsent(src, name);
        if (first != null && !first.equals(name)) {
            threadViolation = "frames of rank " + src + " on " + first + " and " + name;
        }
        return name;
    }

    Received take() throws InterruptedException {
        Received r = frames.poll(20, TimeUnit.SECONDS);
        if (r == null) {
            throw new AssertionError("no frame within 20 s");
        }
        return r;
    }

    Failure takeFailure() throws InterruptedException {
        Failure f = failures.poll(20, TimeUnit.SECONDS);
        if (f == null) {
            throw new AssertionError("no peer failure within 20 s");
        }
        return f;
    }
}
