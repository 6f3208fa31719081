package io.mpirunj.runtime.bootstrap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.runtime.RankContext;
import io.mpirunj.runtime.transport.tcp.TcpTransport;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** ProcessBootstrap: environment checks, and whole ranks started from an environment in one JVM. */
@Timeout(60)
class ProcessBootstrapTest {
    private static Map<String, String> env(String rendezvous, String token, int rank, int size) {
        Map<String, String> env = new HashMap<>();
        env.put(JobEnvironment.RENDEZVOUS, rendezvous);
        env.put(JobEnvironment.JOB_TOKEN, token);
        env.put(JobEnvironment.WORLD_RANK, Integer.toString(rank));
        env.put(JobEnvironment.WORLD_SIZE, Integer.toString(size));
        env.put(JobEnvironment.RENDEZVOUS_TIMEOUT_MS, "20000");
        return env;
    }

    private static String startError(Map<String, String> env) {
        return assertThrows(IllegalArgumentException.class, () -> ProcessBootstrap.start(env)).getMessage();
    }

    @Test
    void missingOrMalformedVariablesAreNamed() {
        String token = JobToken.random();
        Map<String, String> e = env("127.0.0.1:1", token, 0, 1);
        e.remove(JobEnvironment.WORLD_RANK);
        assertEquals("OMPI_COMM_WORLD_RANK (or PMI_RANK) is not set (expected: set by the mpirun-j launcher)",
                startError(e));
        e.put(JobEnvironment.WORLD_RANK, "x");
        assertEquals("OMPI_COMM_WORLD_RANK=x (expected: a non-negative integer)", startError(e));
        e.put(JobEnvironment.WORLD_RANK, "3");
        assertTrue(startError(e).startsWith("rank=3, size=1 (expected: 0 <= rank < size"));
        e.put(JobEnvironment.WORLD_RANK, "0");
        e.put(JobEnvironment.RENDEZVOUS, "nohost");
        assertEquals("MPIRUNJ_RENDEZVOUS=nohost (expected: host:port)", startError(e));
        e.put(JobEnvironment.RENDEZVOUS, "127.0.0.1:1");
        e.remove(JobEnvironment.JOB_TOKEN);
        assertEquals("MPIRUNJ_JOB_TOKEN is not set (expected: set by the mpirun-j launcher)", startError(e));
        e.put(JobEnvironment.JOB_TOKEN, "xyz");
        assertTrue(startError(e).startsWith("MPIRUNJ_JOB_TOKEN has 3 characters"));
    }

    @Test
    void parsesRendezvousAddresses() {
        assertEquals(new InetSocketAddress("127.0.0.1", 5000), ProcessBootstrap.hostPort("127.0.0.1:5000"));
        assertEquals(new InetSocketAddress("::1", 5000), ProcessBootstrap.hostPort("[::1]:5000"));
        assertThrows(IllegalArgumentException.class, () -> ProcessBootstrap.hostPort("host:0"));
        assertThrows(IllegalArgumentException.class, () -> ProcessBootstrap.hostPort(":5000"));
    }

    @Test
    void unreachableRendezvousFailsCleanly() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Map<String, String> e = env("127.0.0.1:" + port, JobToken.random(), 0, 1);
        io.mpirunj.MpiException x = assertThrows(io.mpirunj.MpiException.class, () -> ProcessBootstrap.start(e));
        assertTrue(x.getMessage().contains("rank 0: rendezvous at"), x.getMessage());
    }

    /** Starts {@code n} ranks from their environments, runs {@code body} on each, finishes them. */
    private static void runJob(int n, boolean pmi, RankBody body) throws Exception {
        String token = JobToken.random();
        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        RendezvousServer server = new RendezvousServer(n, token, "127.0.0.1", new RendezvousServer.Listener() {
            @Override
            public void onAllRegistered() {
                events.add("all registered");
            }

            @Override
            public void onAbort(int rank, int exitCode, String reason) {
                events.add("abort " + rank);
            }

            @Override
            public void onRankLost(int rank, String reason) {
                events.add("lost " + rank);
            }

            @Override
            public void onRankFinished(int rank) {
                events.add("finished " + rank);
            }
        });
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<Void>> ranks = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                Map<String, String> env = env("127.0.0.1:" + server.address().getPort(), token, r, n);
                if (pmi) {
                    env.put(JobEnvironment.PMI_RANK, env.remove(JobEnvironment.WORLD_RANK));
                    env.put(JobEnvironment.PMI_SIZE, env.remove(JobEnvironment.WORLD_SIZE));
                }
                int rank = r;
                ranks.add(pool.submit(() -> {
                    RankContext ctx = ProcessBootstrap.start(env);
                    try {
                        assertEquals(rank, ctx.rank());
                        assertEquals(n, ctx.size());
                        assertTrue(ctx.transport() instanceof TcpTransport);
                        body.run(ctx);
                    } finally {
                        ctx.finish();
                    }
                    return null;
                }));
            }
            for (Future<Void> f : ranks) {
                f.get(40, TimeUnit.SECONDS);
            }
            List<String> seen = new ArrayList<>();
            for (int i = 0; i < n + 1; i++) {
                seen.add(events.poll(10, TimeUnit.SECONDS));
            }
            assertEquals("all registered", seen.get(0));
            for (int r = 0; r < n; r++) {
                assertTrue(seen.contains("finished " + r), "clean goodbye from rank " + r + ": " + seen);
            }
            server.close(); // runs what the server's event loop still had queued, then stops it
            assertTrue(events.isEmpty(), "nothing lost or aborted: " + events);
        } finally {
            pool.shutdownNow();
            server.close();
        }
    }

    @FunctionalInterface
    interface RankBody {
        void run(RankContext ctx) throws Exception;
    }

    @Test
    void ranksStartFromTheirEnvironmentAndFinishCleanly() throws Exception {
        runJob(3, false, ctx -> { });
    }

    @Test
    void pmiVariablesWork() throws Exception {
        runJob(2, true, ctx -> { });
    }

    @Test
    void ranksExchangeEagerAndRendezvousMessagesOverTcp() throws Exception {
        int big = 1 << 20; // ints: 4 MiB, well above the eager limit
        runJob(3, false, ctx -> {
            Comm world = ctx.world();
            int me = world.rank();
            int next = (me + 1) % 3;
            int prev = (me + 2) % 3;
            int[] small = {me, me * 10};
            int[] gotSmall = new int[2];
            world.sendrecv(Buffer.of(small), next, 1, Buffer.of(gotSmall), prev, 1);
            assertArrayEquals(new int[] {prev, prev * 10}, gotSmall);
            int[] large = new int[big];
            for (int i = 0; i < big; i++) {
                large[i] = me * 1_000_003 + i;
            }
            int[] gotLarge = new int[big];
            world.sendrecv(Buffer.of(large), next, 2, Buffer.of(gotLarge), prev, 2);
            for (int i = 0; i < big; i += 4099) {
                assertEquals(prev * 1_000_003 + i, gotLarge[i]);
            }
            assertEquals(prev * 1_000_003 + big - 1, gotLarge[big - 1]);
        });
    }
}
