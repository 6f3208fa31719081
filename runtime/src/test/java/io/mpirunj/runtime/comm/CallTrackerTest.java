package io.mpirunj.runtime.comm;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Which frames a rank's "called at" may name: the program's, never the runtime's, its libraries' or the {@code mpi}
 * package's (Open MPI's Java API on the runtime: a timeout report named its lambdas).
 */
class CallTrackerTest {
    @Test
    void theRuntimeAndItsLibrariesAreNotTheCaller() {
        for (String c : new String[] {"java.lang.Thread", "jdk.internal.misc.Unsafe", "sun.nio.ch.EPoll",
                "io.netty.channel.epoll.EpollEventLoop", "com.google.protobuf.CodedInputStream",
                "com.github.benmanes.caffeine.cache.BoundedLocalCache", "com.fasterxml.jackson.databind.ObjectMapper",
                "org.slf4j.LoggerFactory", "io.mpirunj.runtime.comm.CommImpl", "io.mpirunj.collectives.Select",
                "io.mpirunj.launcher.RankMain", "io.mpirunj.fabric.Mesh", "mpi.Comm", "mpi.Request",
                "mpi.Comm$$Lambda$11/0x0000000802006200"}) {
            assertFalse(CallTracker.isUserClass(c), c);
        }
    }

    @Test
    void programsAndTestAppsAreTheCaller() {
        for (String c : new String[] {"Pi", "com.example.App", "io.mpirunj.testapps.Waiter",
                "io.mpirunj.examples.Hello", "mpi.app.Main", "mpiapp.Main"}) {
            assertTrue(CallTracker.isUserClass(c), c);
        }
    }
}
