package io.mpirunj.runtime.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.mpirunj.runtime.transport.Frame;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * No handler the transport puts in a pipeline carries an annotation Netty reads: Netty looks up each
 * handler's event methods for {@code @Skip} and adapters' classes for {@code @Sharable}, and any
 * annotation found makes the JDK generate proxy classes in every rank JVM at start-up
 * ({@link PlainInboundHandler}).
 */
@ExtendWith(LeakCheck.class)
@Timeout(60)
class TransportHandlersTest {
    private static final byte[] TOKEN = {4, 4, 4, 4, 2, 2, 2, 2};
    /** The methods Netty's handler mask looks up on every handler class (ChannelHandlerMask in Netty 4.2). */
    private static final Set<String> MASKED_METHODS = Set.of("exceptionCaught", "channelRegistered",
            "channelUnregistered", "channelActive", "channelInactive", "channelRead", "channelReadComplete",
            "userEventTriggered", "channelWritabilityChanged", "bind", "connect", "disconnect", "close", "deregister",
            "read", "write", "flush");

    private final List<TcpTransport> transports = new ArrayList<>();
    private final List<RecordingSink> sinks = new ArrayList<>();

    @AfterEach
    void closeAll() {
        transports.forEach(TcpTransport::close);
        for (RecordingSink s : sinks) {
            assertNull(s.threadViolation);
        }
    }

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
        TcpTransportTest.cluster(TOKEN, transports, sinks, TcpConfig.defaults(), TcpConfig.defaults());
        exchange(0, 1, 41);
        exchange(1, 0, 42);
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
        assertEquals(Set.of(FrameEncoder.class, FrameDecoder.class, LinkHandler.class, InboundDispatcher.class,
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

    private void exchange(int src, int dst, int value) throws InterruptedException {
        TcpTransportTest.Listeners written = new TcpTransportTest.Listeners(1);
        transports.get(src).send(dst, Frame.eager(0, value, 4), Unpooled.buffer(4).writeInt(value), written);
        RecordingSink.Received r = sinks.get(dst).take();
        assertEquals(src, r.src());
        assertEquals(value, ByteBuffer.wrap(r.payload()).getInt());
        written.awaitSuccess();
    }
}
