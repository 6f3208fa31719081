package io.mpirunj.collectives.runner;

import io.mpirunj.Buffer;
import io.mpirunj.ElementType;

/**
 * Scratch memory of blocking schedule runs, kept per thread and element type from one call to the
 * next: a collective called in a loop (an allreduce of 1 MiB folds into several MiB of scratch)
 * would otherwise allocate, zero and collect it on every call. A schedule writes its scratch before
 * reading it, so stale contents do not matter. Up to {@link #MAX_CACHED_BYTES} per thread and type
 * is kept; larger scratch is allocated per call.
 */
final class ScratchCache {
    static final long MAX_CACHED_BYTES = 32L << 20;

    private static final ThreadLocal<Buffer[]> CACHED =
            ThreadLocal.withInitial(() -> new Buffer[ElementType.values().length]);

    private ScratchCache() {
    }

    /**
     * A buffer of at least {@code count} elements: this thread's cached one when it is large enough
     * (it is lent out, not shared), else a new one; null for none.
     */
    static Buffer take(ElementType type, int count) {
        if (count == 0) {
            return null;
        }
        Buffer[] cached = CACHED.get();
        Buffer b = cached[type.ordinal()];
        if (b != null && b.count() >= count) {
            cached[type.ordinal()] = null; // a failed run never gives it back
            return b;
        }
        return Buffer.allocate(type, count);
    }

    /** Gives a buffer from {@link #take} back once nothing reads or writes it any more. */
    static void give(Buffer scratch) {
        if (scratch == null || scratch.byteLength() > MAX_CACHED_BYTES) {
            return;
        }
        Buffer[] cached = CACHED.get();
        Buffer b = cached[scratch.type().ordinal()];
        if (b == null || b.count() < scratch.count()) {
            cached[scratch.type().ordinal()] = scratch;
        }
    }
}
