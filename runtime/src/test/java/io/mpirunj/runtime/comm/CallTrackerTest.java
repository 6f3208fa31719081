package io.mpirunj.runtime.comm;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which frames a rank's "called at" may name: the program's, never the runtime's or its libraries'. */
class CallTrackerTest {
    @Test
    void theRuntimeAndItsLibrariesAreNotTheCaller() {
        for (String c : new String[] {"java.lang.Thread", "jdk.internal.misc.Unsafe", "sun.nio.ch.EPoll",
                "io.netty.channel.epoll.EpollEventLoop", "com.google.protobuf.CodedInputStream",
                "com.github.benmanes.caffeine.cache.BoundedLocalCache", "com.fasterxml.jackson.databind.ObjectMapper",
                "org.slf4j.LoggerFactory", "io.mpirunj.runtime.comm.CommImpl", "io.mpirunj.collectives.Select",
                "io.mpirunj.launcher.RankMain", "io.mpirunj.fabric.Mesh"}) {
            assertFalse(CallTracker.isUserClass(c), c);
        }
    }

    @Test
    void programsAndTestAppsAreTheCaller() {
        for (String c : new String[] {"Pi", "com.example.App", "io.mpirunj.testapps.Waiter",
                "io.mpirunj.examples.Hello"}) {
            assertTrue(CallTracker.isUserClass(c), c);
        }
    }
}
