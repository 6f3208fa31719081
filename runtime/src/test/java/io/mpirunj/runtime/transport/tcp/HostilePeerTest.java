package io.mpirunj.runtime.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.mpirunj.runtime.transport.Frame;
import io.mpirunj.runtime.wire.Hello;
import io.mpirunj.runtime.wire.HelloReply;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Raw sockets that misbehave towards a TcpTransport (and a fake peer that misbehaves towards its
 * connector): each is disconnected with a logged reason, and the transport keeps serving its
 * legitimate peers. The job has three ranks; transports exist for ranks 0 and 1, the raw socket
 * poses as rank 2 where it needs a valid hello.
 */
@ExtendWith(LeakCheck.class)
@Timeout(60)
class HostilePeerTest {
    private static final byte[] TOKEN = TcpTransportTest.TOKEN;

    private final List<TcpTransport> transports = new ArrayList<>();
    private final List<RecordingSink> sinks = new ArrayList<>();
    private final List<InetSocketAddress> table = new ArrayList<>();
    private LogCapture log;

    @BeforeEach
    void setUp() {
        log = new LogCapture();
        TcpConfig config = TcpConfig.defaults().withHandshakeTimeoutMs(500);
        for (int r = 0; r < 2; r++) {
            TcpTransport t = new TcpTransport(r, 3, TOKEN, config);
            transports.add(t);
            table.add(t.advertisedAddress());
        }
        table.add(new InetSocketAddress("127.0.0.1", 1)); // rank 2: nobody there, never dialled here
        for (TcpTransport t : transports) {
            t.setPeerAddresses(table);
            RecordingSink s = new RecordingSink();
            sinks.add(s);
            t.start(s);
        }
    }

    @AfterEach
    void tearDown() {
        transports.forEach(TcpTransport::close);
        log.close();
    }

    /** A raw client connected to rank 0. */
    private static final class Raw implements AutoCloseable {
        final Socket socket;
        final DataOutputStream out;
        final DataInputStream in;

        Raw(InetSocketAddress address) throws IOException {
            socket = new Socket(address.getAddress(), address.getPort());
            socket.setSoTimeout(10_000);
            out = new DataOutputStream(socket.getOutputStream());
            in = new DataInputStream(socket.getInputStream());
        }

        String local() {
            return socket.getLocalSocketAddress().toString();
        }

        void hello(int version, byte[] token, int rank, int size) throws IOException {
            byte[] b = Hello.newBuilder().setProtocolVersion(version).setJobToken(ByteString.copyFrom(token))
                    .setRank(rank).setWorldSize(size).build().toByteArray();
            out.writeInt(b.length);
            out.write(b);
            out.flush();
        }

        HelloReply reply() throws IOException {
            byte[] b = new byte[in.readInt()];
            in.readFully(b);
            return HelloReply.parseFrom(b);
        }

        void write(ByteBuf b) throws IOException {
            out.write(ByteBufUtil.getBytes(b));
            out.flush();
            b.release();
        }

        /** Reads until EOF (the transport closed the connection); fails on timeout. */
        void expectEof() throws IOException {
            while (in.read() != -1) {
                // drain whatever came first (e.g. a GOODBYE)
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    private Raw raw() throws IOException {
        return new Raw(transports.get(0).boundAddress());
    }

    /** Rank 1 can still talk to rank 0 (and the hostile peer did not reach the sink). */
    private void assertRankZeroStillServes(int tag) throws Exception {
        TcpTransportTest.Listeners l = new TcpTransportTest.Listeners(1);
        transports.get(1).send(0, Frame.eager(0, tag, 1), Unpooled.wrappedBuffer(new byte[] {7}), l);
        RecordingSink.Received r = sinks.get(0).take();
        assertEquals(1, r.src());
        assertEquals(tag, r.frame().tag());
        l.awaitSuccess();
    }

    @Test
    void garbageIsDisconnected() throws Exception {
        try (Raw raw = raw()) {
            raw.out.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            raw.out.flush();
            raw.expectEof();
            log.await("WARN", "rank 0: refused connection from " + raw.local(), "handshake length=");
        }
        assertRankZeroStillServes(1);
        assertTrue(sinks.get(0).failures.isEmpty(), "an unauthenticated peer is no rank failure");
    }

    @Test
    void wrongJobTokenIsRefusedWithAReason() throws Exception {
        try (Raw raw = raw()) {
            raw.hello(WireProtocol.VERSION, new byte[] {9, 9, 9}, 1, 3);
            HelloReply reply = raw.reply();
            assertFalse(reply.getAccepted());
            assertTrue(reply.getReason().contains("job token mismatch"), reply.getReason());
            raw.expectEof();
            log.await("WARN", "refused connection from " + raw.local(), "job token mismatch");
        }
        assertRankZeroStillServes(2); // rank 1's slot was not taken by the impostor
    }

    @Test
    void wrongProtocolVersionIsRefusedWithAReason() throws Exception {
        try (Raw raw = raw()) {
            raw.hello(99, TOKEN, 2, 3);
            HelloReply reply = raw.reply();
            assertFalse(reply.getAccepted());
            assertEquals("protocol version=99 (expected: " + WireProtocol.VERSION + ")", reply.getReason());
            raw.expectEof();
            log.await("WARN", "refused connection from " + raw.local(), "protocol version=99");
        }
        assertRankZeroStillServes(3);
    }

    @Test
    void wrongWorldSizeAndRankAreRefused() throws Exception {
        try (Raw raw = raw()) {
            raw.hello(WireProtocol.VERSION, TOKEN, 1, 4);
            assertEquals("world size=4 (expected: 3)", raw.reply().getReason());
            raw.expectEof();
        }
        try (Raw raw = raw()) {
            raw.hello(WireProtocol.VERSION, TOKEN, 3, 3);
            assertEquals("rank=3 (expected: 0..2)", raw.reply().getReason());
            raw.expectEof();
        }
        assertRankZeroStillServes(4);
    }

    @Test
    void silentClientTimesOut() throws Exception {
        try (Raw raw = raw()) {
            raw.expectEof();
            log.await("WARN", "refused connection from " + raw.local(), "no hello within 500 ms");
        }
        assertRankZeroStillServes(5);
    }

    @Test
    void oversizedFrameAfterHelloIsDisconnectedAndReportsThatRank() throws Exception {
        try (Raw raw = raw()) {
            raw.hello(WireProtocol.VERSION, TOKEN, 2, 3);
            assertTrue(raw.reply().getAccepted());
            raw.write(Unpooled.buffer().writeInt(-16).writeZero(16));
            raw.expectEof();
            log.await("WARN", "rank 0 <- rank 2: closing connection with " + raw.local(), "frame length=4294967280");
        }
        RecordingSink.Failure f = sinks.get(0).takeFailure();
        assertEquals(2, f.peer());
        assertTrue(f.cause().getMessage().contains("frame length=4294967280"), f.cause().getMessage());
        assertRankZeroStillServes(6);
    }

    @Test
    void duplicateConnectionForARankIsRefused() throws Exception {
        try (Raw first = raw(); Raw second = raw()) {
            first.hello(WireProtocol.VERSION, TOKEN, 2, 3);
            assertTrue(first.reply().getAccepted());
            second.hello(WireProtocol.VERSION, TOKEN, 2, 3);
            HelloReply reply = second.reply();
            assertFalse(reply.getAccepted());
            assertTrue(reply.getReason().contains("has connected before"), reply.getReason());
            second.expectEof();
            // the first one still works
            ByteBuf frame = Unpooled.buffer();
            Frame cts = Frame.cts(5, 6);
            FrameHeaderCodec.writePrefix(frame, cts, FrameHeaderCodec.headerSize(cts), 0);
            first.write(frame);
            RecordingSink.Received r = sinks.get(0).take();
            assertEquals(2, r.src());
            assertEquals(cts.toString(), r.frame().toString());
        }
    }

    @Test
    void peerDroppingWithoutGoodbyeIsReported() throws Exception {
        try (Raw raw = raw()) {
            raw.hello(WireProtocol.VERSION, TOKEN, 2, 3);
            assertTrue(raw.reply().getAccepted());
        } // closed without GOODBYE
        RecordingSink.Failure f = sinks.get(0).takeFailure();
        assertEquals(2, f.peer());
        assertTrue(f.cause().getMessage().contains("closed without goodbye"), f.cause().getMessage());
    }

    @Test
    void peerSayingGoodbyeIsNotReported() throws Exception {
        try (Raw raw = raw()) {
            raw.hello(WireProtocol.VERSION, TOKEN, 2, 3);
            assertTrue(raw.reply().getAccepted());
            ByteBuf goodbye = Unpooled.buffer();
            FrameHeaderCodec.writeGoodbye(goodbye);
            raw.write(goodbye);
            raw.expectEof(); // rank 0 closes in answer
        }
        // the connection's end after the goodbye is where a failure would be reported: wait for that event
        assertEquals(2, sinks.get(0).left.poll(10, TimeUnit.SECONDS), "rank 0 saw rank 2 leave");
        assertTrue(sinks.get(0).failures.isEmpty(), String.valueOf(sinks.get(0).failures));
    }

    /** A fake rank 2 that accepts one connection and answers the hello as {@code reply} says. */
    private void dialFakePeer(HelloReply reply, String expectedReason) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            table.set(2, new InetSocketAddress("127.0.0.1", server.getLocalPort()));
            TcpTransport t = new TcpTransport(0, 3, TOKEN, TcpConfig.defaults());
            transports.add(t);
            t.setPeerAddresses(table);
            RecordingSink sink = new RecordingSink();
            t.start(sink);
            TcpTransportTest.Listeners l = new TcpTransportTest.Listeners(1);
            t.send(2, Frame.cts(1, 2), null, l);
            try (Socket s = server.accept()) {
                DataInputStream in = new DataInputStream(s.getInputStream());
                byte[] hello = new byte[in.readInt()];
                in.readFully(hello);
                assertEquals(0, Hello.parseFrom(hello).getRank());
                byte[] b = reply.toByteArray();
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                out.writeInt(b.length);
                out.write(b);
                out.flush();
                RecordingSink.Failure f = sink.takeFailure();
                assertEquals(2, f.peer());
                assertTrue(f.cause().getMessage().contains(expectedReason), f.cause().getMessage());
                assertTrue(l.done.await(10, TimeUnit.SECONDS));
                assertEquals(1, l.failures.size());
            }
        }
    }

    @Test
    void connectorReportsARefusal() throws Exception {
        dialFakePeer(HelloReply.newBuilder().setProtocolVersion(WireProtocol.VERSION).setAccepted(false).setRank(2)
                .setReason("job token mismatch").build(), "rank 2 refused the connection: job token mismatch");
    }

    @Test
    void connectorReportsAWrongRank() throws Exception {
        dialFakePeer(HelloReply.newBuilder().setProtocolVersion(WireProtocol.VERSION).setAccepted(true).setRank(1)
                .build(), "is rank 1 (expected: rank 2)");
    }
}
