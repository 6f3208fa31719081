package io.mpirunj.testing;

import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * For timing tests ({@code @ExtendWith(NoLeakTracking.class)}): Netty's leak detection is off while the
 * class runs and restored after. The build runs with paranoid leak detection, which records a stack trace
 * per buffer access and would charge it to every timed message.
 */
public final class NoLeakTracking implements BeforeAllCallback, AfterAllCallback {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(NoLeakTracking.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getStore(NAMESPACE).put("level", ResourceLeakDetector.getLevel());
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        ResourceLeakDetector.setLevel(context.getStore(NAMESPACE).get("level", ResourceLeakDetector.Level.class));
    }
}
