package io.mpirunj.runtime.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test whose ByteBufs leaked. Surefire runs with {@code leakDetection.level=paranoid}, so
 * every buffer is tracked; after each test this collects garbage, makes the detector poll its
 * queue (it reports while tracking new buffers) and asserts nothing was reported. Best effort: a
 * leak the GC has not noticed yet surfaces in a later test of the same JVM.
 */
public final class LeakCheck implements BeforeAllCallback, AfterEachCallback {
    private static final List<String> LEAKS = new CopyOnWriteArrayList<>();
    private static volatile boolean installed;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        install();
    }

    private static synchronized void install() throws ReflectiveOperationException {
        if (installed) {
            return;
        }
        Field f = Class.forName("io.netty.buffer.AbstractByteBuf").getDeclaredField("leakDetector");
        f.setAccessible(true);
        @SuppressWarnings("unchecked")
        ResourceLeakDetector<ByteBuf> detector = (ResourceLeakDetector<ByteBuf>) f.get(null);
        detector.setLeakListener((resourceType, records) -> LEAKS.add(resourceType + " " + records));
        installed = true;
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        for (int round = 0; round < 3; round++) {
            // a sentinel cleared by the same collection: once it is enqueued, the reference handler has
            // been through that collection's references, the leak detector's among them
            ReferenceQueue<Object> cleared = new ReferenceQueue<>();
            WeakReference<Object> sentinel = new WeakReference<>(new Object(), cleared);
            System.gc();
            cleared.remove(5_000);
            Reference.reachabilityFence(sentinel);
            for (int i = 0; i < 8; i++) {
                PooledByteBufAllocator.DEFAULT.buffer(8).release(); // tracking polls the leak queue
            }
        }
        List<String> found = List.copyOf(LEAKS);
        LEAKS.clear();
        assertTrue(found.isEmpty(), "ByteBuf leaks: " + found);
    }
}
