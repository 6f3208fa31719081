package io.mpirunj.runtime.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.Test;

/** {@link NettyIo#applyDefaults}: our Netty defaults, each unless set with -D. */
class NettyDefaultsTest {
    @Test
    void unsetPropertiesGetOurDefaultsAndSetOnesAreKept() {
        String jfr = System.getProperty(NettyIo.NETTY_JFR_PROP);
        String allocator = System.getProperty(NettyIo.NETTY_ALLOCATOR_PROP);
        String classifiers = System.getProperty(NettyIo.NETTY_OS_CLASSIFIERS_PROP);
        try {
            System.clearProperty(NettyIo.NETTY_JFR_PROP);
            System.clearProperty(NettyIo.NETTY_OS_CLASSIFIERS_PROP);
            System.setProperty(NettyIo.NETTY_ALLOCATOR_PROP, "unpooled");
            NettyIo.applyDefaults();
            assertEquals("false", System.getProperty(NettyIo.NETTY_JFR_PROP));
            assertEquals("unpooled", System.getProperty(NettyIo.NETTY_ALLOCATOR_PROP));
            assertEquals("", System.getProperty(NettyIo.NETTY_OS_CLASSIFIERS_PROP));
            System.clearProperty(NettyIo.NETTY_ALLOCATOR_PROP);
            System.setProperty(NettyIo.NETTY_OS_CLASSIFIERS_PROP, "debian");
            NettyIo.applyDefaults();
            assertEquals("pooled", System.getProperty(NettyIo.NETTY_ALLOCATOR_PROP));
            assertEquals("debian", System.getProperty(NettyIo.NETTY_OS_CLASSIFIERS_PROP));
            // the tests run with -Dio.netty.leakDetection.level=paranoid, which the defaults leave alone
            assertEquals("paranoid", System.getProperty("io.netty.leakDetection.level"));
            assertEquals(ResourceLeakDetector.Level.PARANOID, ResourceLeakDetector.getLevel());
        } finally {
            restore(NettyIo.NETTY_JFR_PROP, jfr);
            restore(NettyIo.NETTY_ALLOCATOR_PROP, allocator);
            restore(NettyIo.NETTY_OS_CLASSIFIERS_PROP, classifiers);
        }
    }

    private static void restore(String name, String value) {
        if (value == null) {
            System.clearProperty(name);
        } else {
            System.setProperty(name, value);
        }
    }
}
