package io.mpirunj.runtime.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.mpirunj.runtime.transport.Frame;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.DomainSocketAddress;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** The same-host path ({@link TcpConfig#LOCAL_SOCKETS_PROP}): TcpTransports in one JVM over Unix domain sockets. */
@ExtendWith(LeakCheck.class)
@Timeout(60)
class LocalSocketTest {
    private static final byte[] TOKEN = {9, 8, 7, 6, 5, 4, 3, 2};

    private final List<TcpTransport> transports = new ArrayList<>();
    private final List<RecordingSink> sinks = new ArrayList<>();

    @BeforeEach
    void needsEpoll() {
        assumeTrue(Epoll.isAvailable(), "Unix domain sockets need native epoll");
    }

    @AfterEach
    void closeAll() {
        transports.forEach(TcpTransport::close);
        for (RecordingSink s : sinks) {
            assertNull(s.threadViolation);
        }
    }

    /** Rank r with local sockets on if {@code local[r]}. */
    private void cluster(boolean... local) {
        TcpConfig[] configs = new TcpConfig[local.length];
        for (int r = 0; r < local.length; r++) {
            configs[r] = TcpConfig.defaults().withLocalSockets(local[r]);
        }
        TcpTransportTest.cluster(TOKEN, transports, sinks, configs);
    }

    private void exchange(int src, int dst, int value) throws InterruptedException {
        TcpTransportTest.exchange(transports, sinks, src, dst, value);
    }

    /** Two same-host ranks, one message from 0 to 1 ({@code value}); returns rank 0's link to 1, a domain socket. */
    private Channel domainLinkFrom0To1(int value) throws InterruptedException {
        cluster(true, true);
        exchange(0, 1, value);
        Channel ch = transports.get(0).outboundChannel(1);
        assertTrue(NettyIo.isDomain(ch));
        return ch;
    }

    /**
     * A domain socket connection asks for its send buffer (TcpConfig.LOCAL_SOCKET_SEND_BUFFER_BYTES_PROP): the kernel
     * keeps twice the request, capped at net.core.wmem_max; without the request it would be net.core.wmem_default.
     */
    @Test
    void domainConnectionsTakeTheirSendBuffer() throws Exception {
        Channel ch = domainLinkFrom0To1(7);
        // readAllLines: Files.readString trusts procfs's size and read "4" of "4194304" here
        long wmemMax = Long.parseLong(Files.readAllLines(Path.of("/proc/sys/net/core/wmem_max")).get(0).strip());
        assertEquals(2 * Math.min(TcpConfig.LOCAL_SOCKET_SEND_BUFFER_BYTES_DEFAULT, wmemMax),
                (long) ch.config().getOption(ChannelOption.SO_SNDBUF));
    }

    @Test
    void sameHostRanksSendOverTheirDomainSockets() throws Exception {
        cluster(true, true, true);
        for (int src = 0; src < 3; src++) {
            for (int dst = 0; dst < 3; dst++) {
                if (src != dst) {
                    exchange(src, dst, 10 * src + dst);
                    assertTrue(NettyIo.isDomain(transports.get(src).outboundChannel(dst)), src + " -> " + dst);
                    assertTrue(NettyIo.isDomain(transports.get(dst).inboundChannel(src)), dst + " <- " + src);
                }
            }
        }
        transports.get(2).close(); // leaves first: the others see its goodbye on their domain sockets
        assertEquals(2, sinks.get(0).left.poll(10, TimeUnit.SECONDS), "rank 0 saw rank 2 leave");
        transports.forEach(TcpTransport::close);
        assertTrue(sinks.stream().allMatch(s -> s.failures.isEmpty()), "a clean close is no failure");
    }

    @Test
    void socketNamesAreAbstractAndGoWithTheTransport() throws IOException {
        DomainSocketAddress name = TcpTransport.localSocketName(new java.net.InetSocketAddress("127.0.0.1", 40_000), 3);
        assertEquals('\0', name.path().charAt(0), "the abstract namespace: no file");
        assertTrue(name.path().endsWith("-3"));
        assertNotEquals(name.path(), TcpTransport.localSocketName(new java.net.InetSocketAddress("127.0.0.1", 40_001), 3).path());
        assertNotEquals(name.path(), TcpTransport.localSocketName(new java.net.InetSocketAddress("127.0.0.1", 40_000), 4).path());
        assertNotEquals(name.path(), TcpTransport.localSocketName(new java.net.InetSocketAddress("127.0.0.2", 40_000), 3).path());

        cluster(true, true);
        TcpTransport t1 = transports.get(1);
        assertTrue(t1.hasLocalSocket());
        String listed = NettyIo.printable(TcpTransport.localSocketName(t1.advertisedAddress(), 1).path());
        Path table = Path.of("/proc/net/unix");
        assumeTrue(Files.isReadable(table));
        assertTrue(Files.readString(table).contains(listed), listed + " in " + table);
        t1.close();
        assertFalse(Files.readString(table).contains(" " + listed + "\n"), listed + " gone after close");
    }

    @Test
    void fallsBackToTcpWhenThePeerHasNoDomainSocket() throws Exception {
        cluster(true, false);
        assertFalse(transports.get(1).hasLocalSocket());
        exchange(0, 1, 1);
        Channel out = transports.get(0).outboundChannel(1);
        assertFalse(NettyIo.isDomain(out), "rank 1 has no domain socket: TCP");
        assertFalse(NettyIo.isDomain(transports.get(1).inboundChannel(0)));
        exchange(1, 0, 2);
        assertFalse(NettyIo.isDomain(transports.get(1).outboundChannel(0)), "rank 1 has the path off: TCP");
        assertTrue(sinks.get(0).failures.isEmpty() && sinks.get(1).failures.isEmpty());
    }

    @Test
    void fallsBackToTcpWhenThePeersSocketIsGone() throws Exception {
        cluster(true, true);
        assertTrue(transports.get(1).closeLocalSocketForTest()); // as if it had never listened
        exchange(0, 1, 3);
        assertFalse(NettyIo.isDomain(transports.get(0).outboundChannel(1)));
        exchange(1, 0, 4);
        assertTrue(NettyIo.isDomain(transports.get(1).outboundChannel(0)), "the other way still has the path");
    }

    /** Another listener at the peer's name (say another job's) refuses this rank's hello: the link takes TCP. */
    @Test
    void fallsBackToTcpWhenAnotherListenerAnswersAtThePeersName() throws Exception {
        cluster(true, true);
        TcpTransport t1 = transports.get(1);
        assertTrue(t1.closeLocalSocketForTest());
        io.netty.channel.EventLoopGroup group = NettyIo.select(true).newGroup(1, "impostor");
        try {
            NettyIo netty = NettyIo.select(true);
            Channel impostor = NettyIo.listen(group, netty.newListeningChannel(true),
                    TcpTransport.localSocketName(t1.advertisedAddress(), 1),
                    ch -> ch.pipeline().addLast(new io.netty.channel.ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(io.netty.channel.ChannelHandlerContext ctx, Object msg) {
                            io.netty.util.ReferenceCountUtil.release(msg);
                            ctx.writeAndFlush(Handshake.encode(ctx.alloc(), io.mpirunj.runtime.wire.HelloReply.newBuilder()
                                    .setProtocolVersion(WireProtocol.VERSION).setAccepted(false)
                                    .setReason("job token mismatch").build()));
                        }
                    })).sync().channel();
            exchange(0, 1, 6);
            assertFalse(NettyIo.isDomain(transports.get(0).outboundChannel(1)), "refused at the name: TCP");
            assertTrue(sinks.get(0).failures.isEmpty() && sinks.get(1).failures.isEmpty());
            impostor.close().sync();
        } finally {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).sync();
        }
    }

    @Test
    void aDomainConnectionEndingWithoutGoodbyeFailsThePeer() throws Exception {
        Channel out = domainLinkFrom0To1(5);
        out.close(); // what rank 1 sees when rank 0 dies: the stream ends, no goodbye
        RecordingSink.Failure f = sinks.get(1).takeFailure();
        assertEquals(0, f.peer());
        assertTrue(f.cause().getMessage().contains("connection from rank 0 at local socket @mpirunj-"),
                f.cause().getMessage());
        assertEquals(1, sinks.get(0).takeFailure().peer(), "and rank 0's link to rank 1 is lost");
    }

    /**
     * A socket name holds no secret: a rank sends its token only to a listener running as its own user. Checked on
     * a real domain connection, against this process's uid and another one.
     */
    @Test
    void theTokenGoesOnlyToAListenerOfThisUser() throws Exception {
        assumeTrue(Epoll.isAvailable());
        int ours = NettyIo.OwnUid.UID;
        assertTrue(ours >= 0, "this process's uid is known");
        io.netty.channel.EventLoopGroup group = NettyIo.select(true).newGroup(1, "uid-test");
        try {
            DomainSocketAddress name = new DomainSocketAddress("\0mpirunj-uid-test-" + ProcessHandle.current().pid());
            NettyIo netty = NettyIo.select(true);
            Channel server = NettyIo.listen(group, netty.newListeningChannel(true), name, ch -> { }).sync().channel();
            Channel client = NettyIo.connect(group, netty.newConnectingChannel(true, ch -> { }), name).sync().channel();
            assertNull(NettyIo.strangerListening(client), "our own listener");
            assertNull(NettyIo.strangerListening(client, ours));
            String why = NettyIo.strangerListening(client, ours + 1);
            assertTrue(why != null && why.contains("another user's (uid " + ours + ", this process: " + (ours + 1)),
                    String.valueOf(why));
            assertTrue(NettyIo.strangerListening(client, -1).contains("this process: unknown"));
            client.close().sync();
            server.close().sync();
        } finally {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).sync();
        }
    }
}
