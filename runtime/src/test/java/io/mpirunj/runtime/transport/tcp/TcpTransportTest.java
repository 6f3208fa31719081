package io.mpirunj.runtime.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.runtime.transport.Frame;
import io.mpirunj.runtime.transport.FrameKind;
import io.mpirunj.runtime.transport.Transport;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Several TcpTransports in one JVM on loopback, each with a {@link RecordingSink}. */
@ExtendWith(LeakCheck.class)
@Timeout(60)
class TcpTransportTest {
    static final byte[] TOKEN = {1, 2, 3, 4, 5, 6, 7, 8};

    private final List<TcpTransport> transports = new ArrayList<>();
    private final List<RecordingSink> sinks = new ArrayList<>();

    @AfterEach
    void closeAll() {
        transports.forEach(TcpTransport::close);
        for (RecordingSink s : sinks) {
            assertNull(s.threadViolation);
        }
    }

    private void cluster(int n, TcpConfig config) {
        TcpConfig[] configs = new TcpConfig[n];
        java.util.Arrays.fill(configs, config);
        cluster(TOKEN, transports, sinks, configs);
    }

    /** Starts one transport per config (rank r with {@code configs[r]}), each with a new sink, all addresses known. */
    static void cluster(byte[] jobToken, List<TcpTransport> transports, List<RecordingSink> sinks, TcpConfig... configs) {
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (int r = 0; r < configs.length; r++) {
            TcpTransport t = new TcpTransport(r, configs.length, jobToken, configs[r]);
            transports.add(t);
            addresses.add(t.advertisedAddress());
        }
        for (TcpTransport t : transports) {
            t.setPeerAddresses(addresses);
            RecordingSink sink = new RecordingSink();
            sinks.add(sink);
            t.start(sink);
        }
    }

    private void cluster(int n) {
        cluster(n, TcpConfig.defaults());
    }

    /** Sends {@code value} from rank {@code src} to rank {@code dst} of a {@link #cluster} and checks it arrives. */
    static void exchange(List<TcpTransport> transports, List<RecordingSink> sinks, int src, int dst, int value)
            throws InterruptedException {
        Listeners written = new Listeners(1);
        transports.get(src).send(dst, Frame.eager(0, value, 4), Unpooled.buffer(4).writeInt(value), written);
        RecordingSink.Received r = sinks.get(dst).take();
        assertEquals(src, r.src());
        assertEquals(value, ByteBuffer.wrap(r.payload()).getInt());
        written.awaitSuccess();
    }

    private static ByteBuf intPayload(int v) {
        return Unpooled.buffer(4).writeInt(v);
    }

    /** Collects listener results; {@link #await} checks that all succeeded. */
    static final class Listeners implements Transport.WriteListener {
        final CountDownLatch done;
        final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();

        Listeners(int n) {
            done = new CountDownLatch(n);
        }

        @Override
        public void onWritten(Throwable cause) {
            if (cause != null) {
                failures.add(cause);
            }
            done.countDown();
        }

        void awaitSuccess() throws InterruptedException {
            assertTrue(done.await(30, TimeUnit.SECONDS), "listeners left: " + done.getCount());
            assertTrue(failures.isEmpty(), "failed writes: " + failures);
        }
    }

    @ParameterizedTest(name = "epoll={0}")
    @ValueSource(booleans = {true, false})
    void deliversTenThousandSmallFramesInOrder(boolean epoll) throws Exception {
        cluster(2, TcpConfig.defaults().withPreferEpoll(epoll));
        int n = 10_000;
        Listeners listeners = new Listeners(n);
        for (int i = 0; i < n; i++) {
            transports.get(0).send(1, Frame.eager(0, i, 4), intPayload(i), listeners);
        }
        for (int i = 0; i < n; i++) {
            RecordingSink.Received r = sinks.get(1).take();
            assertEquals(0, r.src());
            assertEquals(i, r.frame().tag());
            assertEquals(i, ByteBuffer.wrap(r.payload()).getInt());
        }
        listeners.awaitSuccess();
        assertEquals(epoll && io.netty.channel.epoll.Epoll.isAvailable(), transports.get(0).isEpoll());
    }

    @Test
    void keepsPerSenderOrderWithManyThreadsSending() throws Exception {
        cluster(2);
        int threads = 4;
        int perThread = 2_500;
        Listeners listeners = new Listeners(threads * perThread);
        List<Thread> senders = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int context = t;
            senders.add(startThread(() -> {
                for (int i = 0; i < perThread; i++) {
                    transports.get(0).send(1, Frame.eager(context, i, 4), intPayload(i), listeners);
                }
            }));
        }
        for (Thread s : senders) {
            s.join();
        }
        int[] next = new int[threads];
        for (int i = 0; i < threads * perThread; i++) {
            RecordingSink.Received r = sinks.get(1).take();
            assertEquals(next[r.frame().context()]++, r.frame().tag(), "order within context " + r.frame().context());
        }
        listeners.awaitSuccess();
    }

    @Test
    void streamsA16MiBDataFrameIntoItsTarget() throws Exception {
        cluster(2);
        int bytes = 16 << 20;
        byte[] data = new byte[bytes];
        new Random(42).nextBytes(data);
        int[] target = new int[bytes / 4];
        sinks.get(1).targets.put(99L, Buffer.of(target));
        Listeners listeners = new Listeners(1);
        transports.get(0).send(1, Frame.data(99, bytes), Unpooled.wrappedBuffer(data), listeners);
        RecordingSink.Received r = sinks.get(1).take();
        assertTrue(r.streamed());
        assertEquals(FrameKind.DATA, r.frame().kind());
        assertEquals(crc(data), crc(target));
        listeners.awaitSuccess();
    }

    @Test
    void writesALargeHeapPayloadFromAnOffsetInChunksBetweenOtherFrames() throws Exception {
        cluster(2);
        int bytes = 3 * ChunkedPayload.WRITE_CHUNK_BYTES + 1_234; // chunked: not a whole number of chunks
        byte[] data = new byte[bytes + 20];
        new Random(7).nextBytes(data);
        byte[] target = new byte[bytes];
        sinks.get(1).targets.put(8L, Buffer.of(target));
        Listeners listeners = new Listeners(3);
        TcpTransport t0 = transports.get(0);
        t0.send(1, Frame.eager(0, 1, 4), intPayload(1), listeners);
        t0.send(1, Frame.data(8, bytes), Unpooled.wrappedBuffer(data, 11, bytes), listeners);
        t0.send(1, Frame.eager(0, 2, 4), intPayload(2), listeners);
        assertEquals(1, sinks.get(1).take().frame().tag());
        assertTrue(sinks.get(1).take().streamed());
        assertArrayEquals(java.util.Arrays.copyOfRange(data, 11, 11 + bytes), target);
        assertEquals(2, sinks.get(1).take().frame().tag());
        listeners.awaitSuccess();
    }

    @Test
    void assemblesDataWithoutTargetAndCarriesEveryKind() throws Exception {
        cluster(2);
        byte[] data = new byte[100_000];
        new Random(1).nextBytes(data);
        Listeners listeners = new Listeners(4);
        TcpTransport t0 = transports.get(0);
        t0.send(1, Frame.rts(3, -7, 1 << 30, 5), null, listeners);
        t0.send(1, Frame.cts(5, 6), null, listeners);
        t0.send(1, Frame.data(6, data.length), Unpooled.wrappedBuffer(data), listeners); // no target registered
        t0.send(1, Frame.eager(3, -8, 0), Unpooled.EMPTY_BUFFER, listeners);
        assertEquals(Frame.rts(3, -7, 1 << 30, 5).toString(), sinks.get(1).take().frame().toString());
        assertEquals(Frame.cts(5, 6).toString(), sinks.get(1).take().frame().toString());
        RecordingSink.Received d = sinks.get(1).take();
        assertArrayEquals(data, d.payload());
        RecordingSink.Received e = sinks.get(1).take();
        assertEquals(0, e.payload().length);
        listeners.awaitSuccess();
    }

    @Test
    void sendsBothWaysAtOnce() throws Exception {
        cluster(2);
        int n = 5_000;
        int bytes = 16 << 20;
        byte[][] data = new byte[2][bytes];
        int[][] targets = new int[2][bytes / 4];
        Listeners listeners = new Listeners(2 * (n + 1));
        List<Thread> senders = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            int me = r;
            int peer = 1 - r;
            new Random(r).nextBytes(data[me]);
            sinks.get(peer).targets.put(1000L + me, Buffer.of(targets[peer]));
            senders.add(startThread(() -> {
                for (int i = 0; i < n; i++) {
                    transports.get(me).send(peer, Frame.eager(0, i, 4), intPayload(i), listeners);
                    if (i == n / 2) {
                        transports.get(me).send(peer, Frame.data(1000L + me, bytes), Unpooled.wrappedBuffer(data[me]),
                                listeners);
                    }
                }
            }));
        }
        for (Thread s : senders) {
            s.join();
        }
        for (int r = 0; r < 2; r++) {
            int expectTag = 0;
            for (int i = 0; i < n + 1; i++) {
                RecordingSink.Received got = sinks.get(r).take();
                if (got.streamed()) {
                    assertEquals(n / 2 + 1, expectTag, "DATA between the frames it was sent between");
                    assertEquals(crc(data[1 - r]), crc(targets[r]));
                } else {
                    assertEquals(expectTag++, got.frame().tag());
                }
            }
        }
        listeners.awaitSuccess();
    }

    @Test
    void threeRanksAllToAll() throws Exception {
        cluster(3);
        int n = 500;
        Listeners listeners = new Listeners(3 * 2 * n);
        for (int i = 0; i < n; i++) {
            for (int src = 0; src < 3; src++) {
                for (int dst = 0; dst < 3; dst++) {
                    if (src != dst) {
                        transports.get(src).send(dst, Frame.eager(src, i, 4), intPayload(i), listeners);
                    }
                }
            }
        }
        for (int dst = 0; dst < 3; dst++) {
            int[] next = new int[3];
            for (int i = 0; i < 2 * n; i++) {
                RecordingSink.Received r = sinks.get(dst).take();
                assertEquals(r.src(), r.frame().context());
                assertEquals(next[r.src()]++, r.frame().tag());
            }
        }
        listeners.awaitSuccess();
    }

    @Test
    void cleanCloseIsNotAFailure() throws Exception {
        cluster(3);
        Listeners listeners = new Listeners(6);
        for (int src = 0; src < 3; src++) {
            for (int dst = 0; dst < 3; dst++) {
                if (src != dst) {
                    transports.get(src).send(dst, Frame.cts(src, dst), null, listeners);
                }
            }
        }
        listeners.awaitSuccess();
        transports.get(2).close(); // rank 2 leaves first; the others notice its goodbye
        assertEquals(2, sinks.get(0).left.poll(10, TimeUnit.SECONDS), "rank 0 saw rank 2 leave");
        Listeners late = new Listeners(1);
        transports.get(0).send(2, Frame.cts(9, 9), null, late);
        assertTrue(late.done.await(10, TimeUnit.SECONDS));
        assertTrue(late.failures.peek().getMessage().contains("rank 2 has closed its transport"),
                String.valueOf(late.failures.peek()));
        transports.get(0).close();
        transports.get(1).close();
        for (RecordingSink s : sinks) {
            assertTrue(s.failures.isEmpty(), "no failures on clean close: " + s.failures);
        }
    }

    @Test
    void framesQueuedBeforeCloseAreStillDelivered() throws Exception {
        cluster(2);
        int n = 2_000;
        Listeners listeners = new Listeners(n);
        for (int i = 0; i < n; i++) {
            transports.get(0).send(1, Frame.eager(0, i, 4), intPayload(i), listeners);
        }
        transports.get(0).close(); // connection not even up yet: flushes, then says goodbye
        for (int i = 0; i < n; i++) {
            assertEquals(i, sinks.get(1).take().frame().tag());
        }
        listeners.awaitSuccess();
        assertTrue(sinks.get(1).failures.isEmpty());
    }

    @Test
    void framesQueuedBeforeCloseArriveEvenAfterThePeerHeardGoodbyeElsewhere() throws Exception {
        cluster(2);
        Listeners first = new Listeners(1);
        transports.get(1).send(0, Frame.cts(1, 1), null, first); // 1 -> 0 is up before 0 closes
        sinks.get(0).take();
        first.awaitSuccess();
        int n = 100;
        Listeners listeners = new Listeners(n);
        for (int i = 0; i < n; i++) {
            transports.get(0).send(1, Frame.eager(0, i, 4), intPayload(i), listeners);
        }
        // 0's goodbye on the 1 -> 0 connection may reach rank 1 before 0's new 0 -> 1 connection does
        transports.get(0).close();
        for (int i = 0; i < n; i++) {
            assertEquals(i, sinks.get(1).take().frame().tag());
        }
        listeners.awaitSuccess();
        assertTrue(sinks.get(1).failures.isEmpty());
    }

    /** Rank 0 and rank 1 (bound, but not accepting until {@code b.start}); rank 0 started. */
    private TcpTransport[] pairWithRankOneNotStarted(TcpConfig config) {
        TcpTransport a = new TcpTransport(0, 2, TOKEN, config);
        TcpTransport b = new TcpTransport(1, 2, TOKEN, config);
        transports.add(a);
        transports.add(b);
        List<InetSocketAddress> table = List.of(a.advertisedAddress(), b.advertisedAddress());
        a.setPeerAddresses(table);
        b.setPeerAddresses(table);
        RecordingSink sa = new RecordingSink();
        sinks.add(sa);
        a.start(sa);
        return new TcpTransport[] {a, b};
    }

    @Test
    void closeWaitsUntilASlowPeerHasReadItsLastFrames() throws Exception {
        try (LogCapture log = new LogCapture()) {
            TcpTransport[] pair = pairWithRankOneNotStarted(TcpConfig.defaults().withCloseNoticeMs(1));
            int n = 100;
            Listeners listeners = new Listeners(n);
            for (int i = 0; i < n; i++) {
                pair[0].send(1, Frame.eager(0, i, 4), intPayload(i), listeners);
            }
            Thread closer = startThread(pair[0]::close);
            // Rank 1 is slow (not even accepting yet). A close that gave up after a fixed time, as it
            // once did after 2 s, would lose these frames here and leave rank 1 waiting forever.
            log.await("rank 0: closing: still waiting after 1 ms for ranks [1]");
            assertTrue(closer.isAlive());
            RecordingSink sb = new RecordingSink();
            sinks.add(sb);
            pair[1].start(sb);
            for (int i = 0; i < n; i++) {
                assertEquals(i, sb.take().frame().tag());
            }
            closer.join();
            listeners.awaitSuccess();
            assertTrue(sb.failures.isEmpty(), String.valueOf(sb.failures));
        }
    }

    @Test
    void closeStopsWaitingForAPeerReportedDead() throws Exception {
        try (LogCapture log = new LogCapture()) {
            TcpTransport[] pair = pairWithRankOneNotStarted(TcpConfig.defaults().withCloseNoticeMs(1));
            Listeners queued = new Listeners(1);
            pair[0].send(1, Frame.cts(1, 1), null, queued);
            Thread closer = startThread(pair[0]::close);
            log.await("rank 0: closing: still waiting after 1 ms for ranks [1]");
            pair[0].abandonPeer(1, new IOException("the launcher reports rank 1 failed"));
            closer.join();
            assertTrue(queued.done.await(10, TimeUnit.SECONDS));
            assertEquals(1, queued.failures.size());
            log.await("connection to rank 1 ended while closing", "the launcher reports rank 1 failed");
        }
    }

    @Test
    void sendAfterCloseFailsAndReleases() throws Exception {
        cluster(2);
        transports.get(0).close();
        transports.get(0).close(); // idempotent
        Listeners listeners = new Listeners(1);
        ByteBuf payload = intPayload(1);
        transports.get(0).send(1, Frame.eager(0, 0, 4), payload, listeners);
        assertTrue(listeners.done.await(5, TimeUnit.SECONDS));
        assertInstanceOf(IOException.class, listeners.failures.peek());
        assertEquals(0, payload.refCnt());
    }

    @Test
    void badSendsFailThroughTheListener() throws Exception {
        cluster(2, TcpConfig.defaults().withMaxFrameBytes(1000));
        Listeners listeners = new Listeners(3);
        ByteBuf wrongLength = intPayload(1);
        ByteBuf tooBig = Unpooled.buffer(2000).writeZero(2000);
        transports.get(0).send(5, Frame.cts(1, 1), null, listeners);
        transports.get(0).send(1, Frame.eager(0, 0, 8), wrongLength, listeners);
        transports.get(0).send(1, Frame.data(1, 2000), tooBig, listeners);
        assertTrue(listeners.done.await(5, TimeUnit.SECONDS));
        assertEquals(3, listeners.failures.size());
        listeners.failures.forEach(t -> assertInstanceOf(IllegalArgumentException.class, t));
        assertEquals(0, wrongLength.refCnt());
        assertEquals(0, tooBig.refCnt());
    }

    /**
     * A connection that fails at once reports why, not "closed without goodbye": a host name without an address
     * (the link's listeners must see the failure before the channel's close), and a TCP connect the kernel refuses
     * in the call (Linux: ENETUNREACH for a multicast address, an error without a message), where epoll closes the
     * channel before it fails the connect.
     */
    @ParameterizedTest
    @CsvSource({"no-such-host.invalid, no-such-host.invalid: no address for this host name",
            "224.0.0.1, /224.0.0.1:9 lost: NoRouteToHostException"})
    void peerThatCannotBeConnectedAtAllIsReportedWithWhy(String host, String why) throws Exception {
        TcpTransport t = new TcpTransport(0, 2, TOKEN, TcpConfig.defaults());
        transports.add(t);
        RecordingSink sink = new RecordingSink();
        InetSocketAddress peer = host.startsWith("no-such") ? InetSocketAddress.createUnresolved(host, 9)
                : new InetSocketAddress(host, 9);
        t.setPeerAddresses(List.of(t.advertisedAddress(), peer));
        t.start(sink);
        Listeners queued = new Listeners(1);
        t.send(1, Frame.cts(1, 1), null, queued);
        RecordingSink.Failure f = sink.takeFailure();
        assertEquals(1, f.peer());
        assertTrue(f.cause().getMessage().contains(why), f.cause().getMessage());
        assertTrue(queued.done.await(10, TimeUnit.SECONDS));
        assertEquals(f.cause(), queued.failures.peek());
    }

    @Test
    void unreachablePeerIsReportedAndQueuedFramesFail() throws Exception {
        int deadPort;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            deadPort = s.getLocalPort();
        }
        TcpTransport t = new TcpTransport(0, 2, TOKEN, TcpConfig.defaults());
        transports.add(t);
        RecordingSink sink = new RecordingSink();
        t.setPeerAddresses(List.of(t.advertisedAddress(), new InetSocketAddress("127.0.0.1", deadPort)));
        t.start(sink);
        Listeners queued = new Listeners(2);
        ByteBuf payload = intPayload(3);
        t.send(1, Frame.cts(1, 1), null, queued);
        t.send(1, Frame.eager(0, 0, 4), payload, queued);
        RecordingSink.Failure f = sink.takeFailure();
        assertEquals(1, f.peer());
        assertTrue(f.cause().getMessage().contains("connection to rank 1"), f.cause().getMessage());
        // why, also where epoll closes the channel before it fails the connect
        assertTrue(f.cause().getMessage().toLowerCase(java.util.Locale.ROOT).contains("refused"), f.cause().getMessage());
        assertTrue(queued.done.await(10, TimeUnit.SECONDS));
        assertEquals(2, queued.failures.size());
        assertEquals(0, payload.refCnt());
        Listeners later = new Listeners(1);
        t.send(1, Frame.cts(2, 2), null, later); // after the failure: fails at once, with the cause
        assertTrue(later.done.await(10, TimeUnit.SECONDS));
        assertEquals(f.cause(), later.failures.peek());
        assertTrue(sink.failures.isEmpty(), "reported once");
    }

    static Thread startThread(Runnable r) {
        Thread t = new Thread(r);
        t.start();
        return t;
    }

    static long crc(byte[] data) {
        CRC32 c = new CRC32();
        c.update(data);
        return c.getValue();
    }

    static long crc(int[] data) {
        ByteBuffer b = ByteBuffer.allocate(data.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        b.asIntBuffer().put(data);
        CRC32 c = new CRC32();
        c.update(b);
        return c.getValue();
    }

    @Test
    void sinkSeesNothingBeforeStart() throws Exception {
        TcpTransport[] pair = pairWithRankOneNotStarted(TcpConfig.defaults());
        TcpTransport a = pair[0];
        TcpTransport b = pair[1];
        Listeners listeners = new Listeners(1);
        // b is bound but accepts only once started: a's connection waits in b's backlog for the hello
        // reply, and the frame is delivered to the sink b starts with, not lost
        a.send(1, Frame.cts(4, 4), null, listeners);
        RecordingSink sb = new RecordingSink();
        b.start(sb);
        assertEquals(Frame.cts(4, 4).toString(), sb.take().frame().toString());
        listeners.awaitSuccess();
        assertNotNull(a.boundAddress());
    }

    // ---- no annotations Netty reads: Netty looks up each handler's event methods for @Skip and adapters' classes for
    // @Sharable, and any annotation found makes the JDK generate proxy classes in every rank JVM at start-up
    // (PlainInboundHandler)

    /** The methods Netty's handler mask looks up on every handler class (ChannelHandlerMask in Netty 4.2). */
    private static final Set<String> MASKED_METHODS = Set.of("exceptionCaught", "channelRegistered",
            "channelUnregistered", "channelActive", "channelInactive", "channelRead", "channelReadComplete",
            "userEventTriggered", "channelWritabilityChanged", "bind", "connect", "disconnect", "close", "deregister",
            "read", "write", "flush");

    /** The annotations of {@code type} that Netty would read: on the class (inherited too) or on a masked method. */
    static List<String> annotationsNettyReads(Class<?> type) {
        List<String> found = new ArrayList<>();
        for (Annotation a : type.getAnnotations()) {
            found.add(type.getName() + ": @" + a.annotationType().getSimpleName());
        }
        for (Method m : type.getMethods()) {
            if (MASKED_METHODS.contains(m.getName())) {
                for (Annotation a : m.getDeclaredAnnotations()) {
                    found.add(type.getName() + "." + m.getName() + " (declared in " + m.getDeclaringClass().getSimpleName()
                            + "): @" + a.annotationType().getSimpleName());
                }
            }
        }
        return found;
    }

    @Test
    void theCheckFindsNettysOwnAdaptersAnnotated() {
        assertFalse(annotationsNettyReads(ChannelInboundHandlerAdapter.class).isEmpty());
        assertFalse(annotationsNettyReads(ChannelOutboundHandlerAdapter.class).isEmpty());
        assertFalse(annotationsNettyReads(new ChannelInboundHandlerAdapter() { }.getClass()).isEmpty());
    }

    @Test
    void everyHandlerOfAConnectionAndOfTheListenerIsFreeOfThem() throws Exception {
        cluster(TOKEN, transports, sinks, TcpConfig.defaults(), TcpConfig.defaults());
        exchange(transports, sinks, 0, 1, 41);
        exchange(transports, sinks, 1, 0, 42);
        Set<Class<?>> handlers = new LinkedHashSet<>();
        for (Channel ch : List.of(transports.get(0).outboundChannel(1), transports.get(1).inboundChannel(0),
                transports.get(1).outboundChannel(0), transports.get(0).inboundChannel(1))) {
            for (ChannelHandler h : ch.pipeline().toMap().values()) {
                handlers.add(h.getClass());
            }
        }
        // the handshakes have left the pipelines by now; the listener's acceptor sits on the listening channel
        handlers.add(AcceptorHandshake.class);
        handlers.add(ConnectorHandshake.class);
        handlers.add(listenerHandler());
        assertEquals(Set.of(FrameDecoder.class, LinkHandler.class, InboundDispatcher.class,
                AcceptorHandshake.class, ConnectorHandshake.class, listenerHandler()), handlers);
        List<String> found = new ArrayList<>();
        for (Class<?> h : handlers) {
            found.addAll(annotationsNettyReads(h));
        }
        assertEquals(List.of(), found);
    }

    /** The class of the one handler {@link NettyIo#listen} puts on a listening channel. */
    private static Class<?> listenerHandler() throws InterruptedException {
        NettyIo io = NettyIo.select(true);
        EventLoopGroup group = io.newGroup(1, "handlers-test");
        try {
            Channel listener = NettyIo.listen(group, io.newListeningChannel(false), new InetSocketAddress("127.0.0.1", 0),
                    ch -> { }).sync().channel();
            Class<?> type = listener.pipeline().first().getClass();
            listener.close().sync();
            return type;
        } finally {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).sync();
        }
    }
}
