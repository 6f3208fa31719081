package io.mpirunj.runtime.fabric;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Wall nanos (this host's monotonic clock) at model time 0 of an emulated fabric: one value shared by
 * the arbiter and every rank's clock, so all of them read the same model time. It only moves forward,
 * and it moves when the host lags behind the model (the arbiter wakes late, or a message reaches its
 * receiver later than the model delivered it): the model time then pauses, so the host's delay is not
 * charged to the model ({@link #forgive}). Two longs, the origin and the latest delivery: in this JVM a
 * direct buffer of 16 bytes; for ranks as processes a file of 16 bytes that the launcher's arbiter
 * service and every rank process map into memory. Both are read and raised the same way, atomically.
 */
final class ModelOrigin {
    private static final int ORIGIN = 0;
    private static final int DELIVERED = 8;
    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private final ByteBuffer buffer;

    private ModelOrigin(ByteBuffer buffer) {
        this.buffer = buffer;
    }

    long get() {
        return (long) LONGS.getVolatile(buffer, ORIGIN);
    }

    /** Moves the origin to {@code candidate} if that is later; never back. */
    void advanceTo(long candidate) {
        raise(ORIGIN, candidate);
    }

    /** The latest model time (ns) the arbiter has delivered a message at: no pause goes back before it. */
    long delivered() {
        return (long) LONGS.getVolatile(buffer, DELIVERED);
    }

    /** The arbiter delivers a message at model time {@code modelNanos} (ns). */
    void delivering(long modelNanos) {
        raise(DELIVERED, modelNanos);
    }

    /** The long at {@code offset} becomes {@code candidate} if that is larger (atomically, across processes). */
    private void raise(int offset, long candidate) {
        long was = (long) LONGS.getVolatile(buffer, offset);
        while (candidate > was && !LONGS.compareAndSet(buffer, offset, was, candidate)) {
            was = (long) LONGS.getVolatile(buffer, offset);
        }
    }

    /**
     * The host is late: at wall time {@code wallNow} model time should read {@code modelNanos} (model
     * units x the scale, in ns) but reads more. Pauses model time to read it, or the latest delivery's time
     * if that is later (a message that arrives late must not take model time back behind one the arbiter
     * has delivered since); returns the nanos forgiven.
     */
    long forgive(long wallNow, long modelNanos) {
        modelNanos = Math.max(modelNanos, delivered());
        long late = wallNow - get() - modelNanos;
        if (late > 0) {
            advanceTo(wallNow - modelNanos);
        }
        return Math.max(0, late);
    }

    /**
     * The ranks' clock on this origin: model time x the scale, in ns ({@code wall} minus the origin),
     * monotonic per calling thread (a pause never makes a thread's clock step back; it stands still).
     */
    io.mpirunj.runtime.NanoClock modelClock(io.mpirunj.runtime.NanoClock wall) {
        ThreadLocal<long[]> last = ThreadLocal.withInitial(() -> new long[] {Long.MIN_VALUE});
        return () -> {
            long[] l = last.get();
            long t = Math.max(l[0], wall.nanoTime() - get());
            l[0] = t;
            return t;
        };
    }

    /** An origin for this JVM only (ranks as threads, the calibration's own clock). */
    static ModelOrigin inJvm(long initial) {
        return initialized(ByteBuffer.allocateDirect(2 * Long.BYTES), initial);
    }

    /**
     * The origin in {@code file} (and the latest delivery after it), shared with the other processes of
     * this host that map it; {@code create}: write {@code initial} first (the arbiter service), else read
     * what is there (a rank).
     */
    static ModelOrigin mapped(Path file, boolean create, long initial) {
        ByteBuffer buffer;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            buffer = ch.map(FileChannel.MapMode.READ_WRITE, 0, 2 * Long.BYTES);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot map the emulated fabric's clock file " + file + ": " + e.getMessage(), e);
        }
        return create ? initialized(buffer, initial) : new ModelOrigin(buffer);
    }

    private static ModelOrigin initialized(ByteBuffer buffer, long initial) {
        LONGS.setVolatile(buffer, DELIVERED, Long.MIN_VALUE);
        LONGS.setVolatile(buffer, ORIGIN, initial);
        return new ModelOrigin(buffer);
    }
}
