package io.mpirunj.runtime.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.mpirunj.AbortedException;
import io.mpirunj.MpiException;
import io.mpirunj.RankFailedException;
import io.mpirunj.runtime.transport.tcp.WireProtocol;
import io.mpirunj.runtime.wire.ControlMessage;
import io.mpirunj.runtime.wire.Register;
import io.mpirunj.runtime.wire.StatusReply;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Timeout;

/** RendezvousServer and RendezvousClients in one JVM on loopback. */
@Timeout(60)
class RendezvousTest {
    private static final String TOKEN = JobToken.random();
    private static final int TIMEOUT_MS = 20_000;

    private final Events server = new Events();
    private final List<RendezvousClient> clients = new ArrayList<>();
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private RendezvousServer rendezvous;

    /** Every callback as a string, in order. */
    static final class Events implements RendezvousServer.Listener, RendezvousClient.Listener {
        final BlockingQueue<String> queue = new LinkedBlockingQueue<>();
        /** Registrations, apart from {@link #queue}: most tests do not care about them. */
        final BlockingQueue<Integer> registered = new LinkedBlockingQueue<>();
        /** Why each lost rank was lost. */
        final Map<Integer, String> lostWhy = new ConcurrentHashMap<>();

        @Override
        public void onRankRegistered(int rank) {
            registered.add(rank);
        }

        @Override
        public void onAllRegistered() {
            queue.add("all registered");
        }

        @Override
        public void onAbort(int rank, int exitCode, String reason) {
            queue.add("abort " + rank + " " + exitCode + " " + reason);
        }

        @Override
        public void onRankLost(int rank, String reason) {
            lostWhy.put(rank, reason);
            queue.add("lost " + rank);
        }

        @Override
        public void onFinishFence(int rank) {
            queue.add("at fence " + rank);
        }

        @Override
        public void onRankLeftBeforeJoining(int rank) {
            queue.add("left before joining " + rank);
        }

        @Override
        public void onRankFinished(int rank) {
            queue.add("finished " + rank);
        }

        @Override
        public void onRankFailed(int rank, String reason) {
            queue.add("rank failed " + rank + " " + reason);
        }

        @Override
        public void onJobAborted(int exitCode, String reason) {
            queue.add("job aborted " + exitCode + " " + reason);
        }

        @Override
        public void onPeerInFinish(int peer, long sentHere) {
            queue.add("peer in finish " + peer + " sent " + sentHere);
        }

        void awaitRegistered(int rank) throws InterruptedException {
            Integer r = registered.poll(20, TimeUnit.SECONDS);
            assertEquals(Integer.valueOf(rank), r, "registration seen by the server");
        }

        String next() throws InterruptedException {
            String e = queue.poll(20, TimeUnit.SECONDS);
            if (e == null) {
                throw new AssertionError("no event within 20 s");
            }
            return e;
        }
    }

    @AfterEach
    void tearDown() {
        clients.forEach(RendezvousClient::close);
        if (rendezvous != null) {
            rendezvous.close();
        }
        pool.shutdownNow();
    }

    private static InetSocketAddress fakeTransport(int rank) {
        return new InetSocketAddress("127.0.0.1", 40_000 + rank);
    }

    /** Registers ranks {@code 0..n-1} concurrently; returns the clients in rank order. */
    private List<RendezvousClient> registerAll(int n) throws Exception {
        return registerAll(n, false);
    }

    /** As {@link #registerAll(int)}; {@code hostedByRank0}: as the ranks of a Slurm step register (they wait for it). */
    private List<RendezvousClient> registerAll(int n, boolean hostedByRank0) throws Exception {
        rendezvous = new RendezvousServer(n, TOKEN, "127.0.0.1", server);
        List<Future<RendezvousClient>> futures = new ArrayList<>();
        for (int r = n - 1; r >= 0; r--) { // out of order on purpose
            int rank = r;
            futures.add(0, pool.submit(() -> RendezvousClient.register(rendezvous.address(), TOKEN, rank, n,
                    fakeTransport(rank), TIMEOUT_MS, hostedByRank0)));
        }
        for (Future<RendezvousClient> f : futures) {
            clients.add(f.get(30, TimeUnit.SECONDS));
        }
        return clients;
    }

    @Test
    void everyRankGetsTheWholeTable() throws Exception {
        List<RendezvousClient> all = registerAll(4);
        for (RendezvousClient c : all) {
            assertEquals(List.of(fakeTransport(0), fakeTransport(1), fakeTransport(2), fakeTransport(3)), c.addresses());
        }
        assertEquals("all registered", server.next());
        assertTrue(server.queue.isEmpty());
    }

    @Test
    void goodbyeIsFinishedAndADropIsLost() throws Exception {
        List<RendezvousClient> all = registerAll(3);
        assertEquals("all registered", server.next());
        all.get(1).close();
        assertEquals("finished 1", server.next());
        // rank 2 vanishes: its socket closes without a goodbye (simulated by closing the raw socket)
        java.lang.reflect.Field f = RendezvousClient.class.getDeclaredField("socket");
        f.setAccessible(true);
        ((Socket) f.get(all.get(2))).close();
        assertEquals("lost 2", server.next());
    }

    @Test
    void theFinishFenceReleasesOnlyWhenEveryRankIsInIt() throws Exception {
        for (Future<Long> f : inTheFence(registerAll(3), 3)) {
            assertEquals(0L, f.get(20, TimeUnit.SECONDS)); // released, no collective message counted
        }
    }

    @Test
    void aRankFailingWhileOthersAreInTheFenceFailsThem() throws Exception {
        List<Future<Long>> fences = inTheFence(registerAll(3), 2);
        rendezvous.notifyRankFailed(2, "killed by signal 9"); // after the server has both: no release came before
        assertFencesFail(fences, 2, "killed by signal 9");
    }

    /**
     * Once every rank has registered, the first {@code n} ranks enter the finish fence on threads of their own;
     * returns once the server has seen them all there.
     */
    private List<Future<Long>> inTheFence(List<RendezvousClient> all, int n) throws Exception {
        return inTheFence(all, n, new long[n][0]);
    }

    /** As {@link #inTheFence(List, int)}, rank r saying it sent {@code sent[r][d]} collective messages to rank d. */
    private List<Future<Long>> inTheFence(List<RendezvousClient> all, int n, long[][] sent) throws Exception {
        assertEquals("all registered", server.next());
        List<Future<Long>> fences = new ArrayList<>();
        java.util.Set<String> expected = new java.util.HashSet<>();
        for (int r = 0; r < n; r++) {
            RendezvousClient c = all.get(r);
            long[] mine = sent[r];
            c.listen(new Events());
            fences.add(pool.submit(() -> c.finishFence(mine, mine)));
        }
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int r = 0; r < n; r++) {
            expected.add("at fence " + r);
            seen.add(server.next());
        }
        assertEquals(expected, seen);
        return fences;
    }

    /** Each of {@code fences} fails with a RankFailedException naming {@code rank} and {@code why}. */
    private static void assertFencesFail(List<Future<Long>> fences, int rank, String why) {
        for (Future<Long> f : fences) {
            java.util.concurrent.ExecutionException e = assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> f.get(20, TimeUnit.SECONDS));
            RankFailedException cause = assertInstanceOf(RankFailedException.class, e.getCause());
            assertEquals(rank, cause.failedRank());
            assertEquals("Mpi.finish: the launcher reports rank " + rank + " failed: " + why, cause.getMessage());
        }
    }

    /**
     * While the fence waits, each rank not in it learns which ranks are, with how many messages each sent it (all
     * there, after a moment; a later arrival at once), so that a receive only they could match can fail.
     */
    @Test
    void theRanksNotInTheFenceLearnWhichAreAndWhatTheySentThem() throws Exception {
        List<RendezvousClient> all = registerAll(4);
        Events last = new Events();
        all.get(3).listen(last);
        List<Future<Long>> fences = new ArrayList<>(inTheFence(all, 2, new long[][] {{0, 4, 1, 7}, {2, 0, 0, 5}}));
        assertEquals(java.util.Set.of("peer in finish 0 sent 7", "peer in finish 1 sent 5"),
                java.util.Set.of(last.next(), last.next()));
        Events third = new Events();
        all.get(2).listen(third);
        fences.add(pool.submit(() -> all.get(2).finishFence(new long[4], new long[] {0, 0, 0, 3})));
        assertEquals("at fence 2", server.next());
        assertEquals("peer in finish 2 sent 3", last.next());
        fences.add(pool.submit(() -> all.get(3).finishFence(new long[4], new long[4])));
        assertEquals(List.of(2L, 4L, 1L, 12L), List.of(fences.get(0).get(20, TimeUnit.SECONDS),
                fences.get(1).get(20, TimeUnit.SECONDS), fences.get(2).get(20, TimeUnit.SECONDS),
                fences.get(3).get(20, TimeUnit.SECONDS)), "the collective counts, summed as before");
        // rank 2 was told before it entered; nothing since (the last rank in completes the fence instead)
        assertEquals(java.util.Set.of("peer in finish 0 sent 1", "peer in finish 1 sent 0"),
                java.util.Set.copyOf(third.queue));
    }

    /** The fence sums what each rank says it sent to each and tells every rank what all sent to it. */
    @Test
    void theFenceTellsEachRankHowManyCollectiveMessagesWereSentToIt() throws Exception {
        List<RendezvousClient> all = registerAll(3);
        List<Future<Long>> fences = inTheFence(all, 3, new long[][] {{1, 2, 1}, {3, 0, 0}, {}});
        assertEquals(List.of(4L, 2L, 1L), List.of(fences.get(0).get(20, TimeUnit.SECONDS),
                fences.get(1).get(20, TimeUnit.SECONDS), fences.get(2).get(20, TimeUnit.SECONDS)));
    }

    @Test
    void aFailureNoticedBeforeTheFenceFailsItAtOnce() throws Exception {
        List<RendezvousClient> all = registerAll(3);
        assertEquals("all registered", server.next());
        Events rank0 = new Events();
        all.get(0).listen(rank0);
        rendezvous.notifyAbort(3, "rank 1 called abort");
        assertEquals("job aborted 3 rank 1 called abort", rank0.next());
        AbortedException e = assertThrows(AbortedException.class, () -> all.get(0).finishFence(new long[0], new long[0]));
        assertEquals(3, e.exitCode());
        assertEquals("Mpi.finish: job aborted: rank 1 called abort", e.getMessage());
    }

    @Test
    void aFailureHeldForListenFailsTheFenceToo() throws Exception {
        List<RendezvousClient> all = registerAll(2);
        assertEquals("all registered", server.next());
        rendezvous.notifyRankFailed(1, "gone");
        // the status answer follows the notice on the same stream: once it is back, the reader holds the notice
        assertTrue(rendezvous.queryStatus(TIMEOUT_MS)[0].contains("has not joined the job yet"));
        RankFailedException e = assertThrows(RankFailedException.class, () -> all.get(0).finishFence(new long[0], new long[0])); // no listen()
        assertEquals(1, e.failedRank());
    }

    @Test
    void aRankThatSaysGoodbyeWithoutTheFenceFailsTheOthersFence() throws Exception {
        List<RendezvousClient> all = registerAll(3);
        List<Future<Long>> fences = inTheFence(all, 2);
        all.get(2).close(); // e.g. its Mpi.init failed after registering, and its program went on and ended
        assertEquals("finished 2", server.next());
        assertFencesFail(fences, 2, "it left the job without reaching the fence of Mpi.finish (its Mpi.finish failed "
                + "first, or it went on after Mpi.init failed)");
    }

    @Test
    void theLauncherVanishingFailsTheFence() throws Exception {
        List<RendezvousClient> all = registerAll(2);
        assertEquals("all registered", server.next());
        rendezvous.close();
        Events rank1 = new Events();
        all.get(1).listen(rank1);
        assertTrue(rank1.next().startsWith("job aborted 1 lost the control connection"));
        MpiException lost = assertThrows(MpiException.class, () -> all.get(1).finishFence(new long[0], new long[0]));
        assertTrue(lost.getMessage().startsWith("Mpi.finish: lost the control connection to the launcher"),
                lost.getMessage());
    }

    @Test
    void abortIsRelayedAndNoticesReachTheRanks() throws Exception {
        List<RendezvousClient> all = registerAll(3);
        assertEquals("all registered", server.next());
        List<Events> ranks = new ArrayList<>();
        for (RendezvousClient c : all) {
            Events e = new Events();
            ranks.add(e);
            c.listen(e);
        }
        all.get(2).abort(2, 7, "boom");
        assertEquals("abort 2 7 boom", server.next());
        rendezvous.notifyRankFailed(1, "killed by signal 9");
        assertEquals("rank failed 1 killed by signal 9", ranks.get(0).next());
        assertEquals("rank failed 1 killed by signal 9", ranks.get(2).next());
        rendezvous.notifyAbort(7, "rank 2 called abort");
        for (Events e : ranks) {
            assertEquals("job aborted 7 rank 2 called abort", e.next());
        }
        assertTrue(ranks.get(1).queue.isEmpty(), "the failed rank is not told about itself");
    }

    @Test
    void noticesBeforeListenAreKept() throws Exception {
        List<RendezvousClient> all = registerAll(2);
        rendezvous.notifyRankFailed(1, "gone");
        // the answer to a status query follows the notice on the same ordered stream, so once it is back
        // the client's reader has taken the notice (and holds it until listen)
        assertTrue(rendezvous.queryStatus(TIMEOUT_MS)[0].contains("has not joined the job yet"));
        Events e = new Events();
        all.get(0).listen(e);
        assertEquals("rank failed 1 gone", e.next());
    }

    /** The rank names what it lost: the launcher, or in a Slurm step rank 0, which hosts the rendezvous there. */
    @ParameterizedTest
    @CsvSource({"false, the launcher", "true, rank 0 (it hosts the job's rendezvous)"})
    void launcherVanishingAbortsTheRank(boolean hostedByRank0, String role) throws Exception {
        List<RendezvousClient> all = registerAll(2, hostedByRank0);
        Events e = new Events();
        all.get(1).listen(e);
        rendezvous.close();
        String event = e.next();
        assertTrue(event.startsWith("job aborted " + RendezvousClient.LAUNCHER_LOST_EXIT_CODE
                + " lost the control connection to " + role + " at "), event);
    }

    @Test
    void launcherVanishingBeforeListenIsReportedAsLauncherLost() throws Exception {
        List<RendezvousClient> all = registerAll(2);
        rendezvous.close();
        assertTrue(all.get(0).awaitLossHeld(TIMEOUT_MS), "the client never saw the launcher go");
        BlockingQueue<String> lost = new LinkedBlockingQueue<>();
        all.get(0).listen(new RendezvousClient.Listener() {
            @Override
            public void onRankFailed(int rank, String reason) {
            }

            @Override
            public void onJobAborted(int exitCode, String reason) {
                lost.add("job aborted instead: " + reason);
            }

            @Override
            public void onLauncherLost(String reason) {
                lost.add(reason);
            }
        });
        String reason = lost.poll(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        assertNotNull(reason, "onLauncherLost was not called");
        assertTrue(reason.startsWith("lost the control connection to the launcher"), reason);
    }

    @Test
    void wrongTokenIsRefusedAndTheJobContinues() throws Exception {
        rendezvous = new RendezvousServer(2, TOKEN, "127.0.0.1", server);
        MpiException e = assertThrows(MpiException.class, () -> RendezvousClient.register(rendezvous.address(),
                JobToken.random(), 0, 2, fakeTransport(0), TIMEOUT_MS));
        assertTrue(e.getMessage().contains("refused the registration: job token mismatch"), e.getMessage());
        MpiException size = assertThrows(MpiException.class, () -> RendezvousClient.register(rendezvous.address(),
                TOKEN, 0, 3, fakeTransport(0), TIMEOUT_MS));
        assertTrue(size.getMessage().contains("world size=3 (expected: 2)"), size.getMessage());
        Future<RendezvousClient> a = pool.submit(() -> RendezvousClient.register(rendezvous.address(), TOKEN, 0, 2,
                fakeTransport(0), TIMEOUT_MS));
        Future<RendezvousClient> b = pool.submit(() -> RendezvousClient.register(rendezvous.address(), TOKEN, 1, 2,
                fakeTransport(1), TIMEOUT_MS));
        clients.add(a.get(30, TimeUnit.SECONDS));
        clients.add(b.get(30, TimeUnit.SECONDS));
        assertEquals("all registered", server.next());
    }

    /**
     * A Slurm task that ends without joining says so (task 0 sees no exits): the server reports the word of a rank
     * that never registered, not of one that did (its connection tells), and refuses one from another job.
     */
    @Test
    void aRankSayingItLeavesBeforeJoiningIsReportedUnlessItJoined() throws Exception {
        Future<RendezvousClient> first = rank0WaitingIn(3, false);
        assertFalse(RendezvousClient.sayLeavingBeforeJoining(rendezvous.address(), JobToken.random(), 2, 3, 0),
                "another job's word is refused");
        assertTrue(RendezvousClient.sayLeavingBeforeJoining(rendezvous.address(), TOKEN, 0, 3, 0));
        assertTrue(RendezvousClient.sayLeavingBeforeJoining(rendezvous.address(), TOKEN, 2, 3, 0));
        assertEquals("left before joining 2", server.next());
        rendezvous.failStart(2, "it ended without joining");
        RankFailedException e = assertFailsToStart(first);
        assertEquals("rank 0: the job cannot start: the launcher reports rank 2 failed: it ended without joining",
                e.getMessage());
    }

    /**
     * Once the job cannot start, every rank waiting for the address table is told why, and so is every rank that
     * registers afterwards, instead of waiting until its rendezvous times out (TIMEOUT_MS here).
     */
    @Test
    void aJobThatCannotStartFailsTheWaitingRanksAndTheLateOnes() throws Exception {
        Future<RendezvousClient> early = rank0WaitingIn(4, true);
        rendezvous.failStart(3, "it ended without joining");
        RankFailedException e = assertFailsToStart(early);
        assertEquals(3, e.failedRank());
        assertEquals("rank 0: the job cannot start: its rendezvous reports rank 3 failed: it ended without joining",
                e.getMessage());
        Future<RendezvousClient> late = pool.submit(() -> RendezvousClient.register(rendezvous.address(), TOKEN, 1, 4,
                fakeTransport(1), TIMEOUT_MS));
        assertEquals("rank 1: the job cannot start: the launcher reports rank 3 failed: it ended without joining",
                assertFailsToStart(late).getMessage());
        rendezvous.failStart(2, "a second reason"); // the first one stands
        Future<RendezvousClient> later = pool.submit(() -> RendezvousClient.register(rendezvous.address(), TOKEN, 2, 4,
                fakeTransport(2), TIMEOUT_MS));
        assertTrue(assertFailsToStart(later).getMessage().endsWith("reports rank 3 failed: it ended without joining"));
    }

    /**
     * A rendezvous for {@code n} ranks with rank 0 registered, waiting for the table; {@code hostedByRank0}: as a
     * Slurm step's rank registers.
     */
    private Future<RendezvousClient> rank0WaitingIn(int n, boolean hostedByRank0) throws InterruptedException {
        rendezvous = new RendezvousServer(n, TOKEN, "127.0.0.1", server);
        Future<RendezvousClient> waiting = pool.submit(() -> RendezvousClient.register(rendezvous.address(), TOKEN, 0,
                n, fakeTransport(0), TIMEOUT_MS, hostedByRank0));
        server.awaitRegistered(0);
        return waiting;
    }

    private static RankFailedException assertFailsToStart(Future<RendezvousClient> registration) throws Exception {
        ExecutionException e = assertThrows(ExecutionException.class, () -> registration.get(30, TimeUnit.SECONDS));
        return assertInstanceOf(RankFailedException.class, e.getCause());
    }

    @Test
    void duplicateRankIsRefused() throws Exception {
        Future<RendezvousClient> first = rank0WaitingIn(2, false);
        MpiException e = assertThrows(MpiException.class, () -> RendezvousClient.register(rendezvous.address(),
                TOKEN, 0, 2, fakeTransport(0), TIMEOUT_MS));
        assertTrue(e.getMessage().contains("rank 0 is already registered"), e.getMessage());
        clients.add(RendezvousClient.register(rendezvous.address(), TOKEN, 1, 2, fakeTransport(1), TIMEOUT_MS));
        clients.add(first.get(30, TimeUnit.SECONDS));
    }

    @Test
    void missingRanksTimeOutWithAClearError() {
        rendezvous = new RendezvousServer(2, TOKEN, "127.0.0.1", server);
        MpiException e = assertThrows(MpiException.class, () -> RendezvousClient.register(rendezvous.address(),
                TOKEN, 0, 2, fakeTransport(0), 300));
        assertTrue(e.getMessage().contains("not every rank registered with the rendezvous"), e.getMessage());
        assertTrue(e.getMessage().contains("within 300 ms"), e.getMessage());
    }

    @Test
    void unreachableRendezvousIsAClearError() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        MpiException e = assertThrows(MpiException.class, () -> RendezvousClient.register(
                new InetSocketAddress("127.0.0.1", port), TOKEN, 0, 1, fakeTransport(0), TIMEOUT_MS));
        assertTrue(e.getMessage().contains("rendezvous at"), e.getMessage());
    }

    @Test
    void rawClientThatRegistersAndDropsIsLost() throws Exception {
        rendezvous = new RendezvousServer(2, TOKEN, "127.0.0.1", server);
        try (Socket s = new Socket("127.0.0.1", rendezvous.address().getPort())) {
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            ControlCodec.write(out, ControlMessage.newBuilder().setRegister(Register.newBuilder()
                    .setProtocolVersion(WireProtocol.VERSION).setJobToken(ByteString.copyFrom(JobToken.decode(TOKEN)))
                    .setRank(1).setWorldSize(2).setHost("127.0.0.1").setPort(5)).build());
            server.awaitRegistered(1);
        }
        assertEquals("lost 1", server.next());
    }

    @Test
    void theSilentRanksOfOneHostAreDroppedInOneHeartbeat() throws Exception {
        // ticks every 20 ms, lost after 3 s of silence: ranks 1 and 2 (raw sockets that stop answering) go silent
        // ~200 ms apart, more than a tick, less than half the timeout: the host's ranks leave together
        Map<String, String> props = Map.of(RendezvousServer.HEARTBEAT_INTERVAL_MS_PROP, "20",
                RendezvousServer.HEARTBEAT_TIMEOUT_MS_PROP, "3000");
        props.forEach(System::setProperty);
        try {
            rendezvous = new RendezvousServer(3, TOKEN, "127.0.0.1", server);
        } finally {
            props.keySet().forEach(System::clearProperty);
        }
        try (Socket one = rawRank(1, 3); Socket two = rawRank(2, 3)) {
            clients.add(RendezvousClient.register(rendezvous.address(), TOKEN, 0, 3, fakeTransport(0), TIMEOUT_MS));
            assertEquals("all registered", server.next());
            rendezvous.dropSilentRanks();
            DataInputStream in = new DataInputStream(two.getInputStream());
            int pings = 0;
            while (pings < 10) {
                if (ControlCodec.read(in).hasStatusQuery()) {
                    pings++;
                }
            }
            ControlCodec.write(new DataOutputStream(two.getOutputStream()), ControlMessage.newBuilder()
                    .setStatusReply(StatusReply.newBuilder().setQueryId(RendezvousServer.HEARTBEAT_QUERY_ID).setRank(2)
                            .setActivity("")).build());
            assertEquals("lost 1", server.next());
            assertEquals("lost 2", server.next());
            assertTrue(server.lostWhy.get(1).contains("no heartbeat for"), server.lostWhy::toString);
            assertTrue(server.lostWhy.get(2).contains("from a host whose other ranks are gone"), server.lostWhy::toString);
            clients.get(0).close();
            assertEquals("finished 0", server.next()); // the rank that answered stayed
        }
    }

    /** A socket registered as {@code rank} of {@code size} that answers nothing. */
    private Socket rawRank(int rank, int size) throws Exception {
        Socket s = new Socket("127.0.0.1", rendezvous.address().getPort());
        ControlCodec.write(new DataOutputStream(s.getOutputStream()), ControlMessage.newBuilder().setRegister(
                Register.newBuilder().setProtocolVersion(WireProtocol.VERSION)
                        .setJobToken(ByteString.copyFrom(JobToken.decode(TOKEN))).setRank(rank).setWorldSize(size)
                        .setHost("127.0.0.1").setPort(5)).build());
        server.awaitRegistered(rank);
        return s;
    }

    @Test
    void garbageIsRefused() throws Exception {
        rendezvous = new RendezvousServer(1, TOKEN, "127.0.0.1", server);
        try (Socket s = new Socket("127.0.0.1", rendezvous.address().getPort())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write("GET / HTTP/1.1\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            DataInputStream in = new DataInputStream(s.getInputStream());
            while (in.read() != -1) {
                // until the server hangs up
            }
        }
        clients.add(RendezvousClient.register(rendezvous.address(), TOKEN, 0, 1, fakeTransport(0), TIMEOUT_MS));
        assertEquals("all registered", server.next());
    }
}
