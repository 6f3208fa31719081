package io.mpirunj.runtime.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.runtime.transport.local.LocalTransports;
import io.netty.buffer.ByteBuf;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A forwarding transport behaves as its delegate, in the calls with defaults too. */
class ForwardingTransportTest {
    /**
     * A delegate that answers unlike {@link Transport}'s defaults and records the calls it gets (itself an
     * in-JVM transport underneath for the rest).
     */
    private static final class Delegate extends ForwardingTransport {
        final List<String> calls = new ArrayList<>();

        Delegate() {
            super(new LocalTransports(2).create(0, 2));
        }

        @Override
        public void send(int dst, Frame frame, ByteBuf payload, WriteListener onWritten) {
            calls.add("send " + dst);
        }

        @Override
        public void sendConverting(int dst, Frame frame, Buffer src, WriteListener onWritten) {
            calls.add("sendConverting " + dst + " " + src.byteLength());
            onWritten.onWritten(null);
        }

        @Override
        public boolean copiesPayloadBeforeCompletion() {
            return true;
        }

        @Override
        public long spinBeforeYieldNanos() {
            return 7;
        }

        @Override
        public long crowdedYieldNanos() {
            return 11;
        }
    }

    @Test
    void theCallsWithDefaultsGoToTheDelegate() {
        Delegate delegate = new Delegate();
        Transport forwarding = new ForwardingTransport(delegate) { };
        assertTrue(forwarding.copiesPayloadBeforeCompletion());
        assertEquals(7, forwarding.spinBeforeYieldNanos());
        assertEquals(11, forwarding.crowdedYieldNanos());
        List<Throwable> written = new ArrayList<>();
        // the default would copy into allocate()d memory and call send: the delegate converts it itself
        forwarding.sendConverting(2, Frame.eager(0, 5, 12), Buffer.of(new int[3]), written::add);
        assertEquals(List.of("sendConverting 2 12"), delegate.calls);
        assertEquals(1, written.size());
        assertEquals(null, written.get(0));
    }

    @Test
    void everyMethodOfTransportIsForwarded() throws NoSuchMethodException {
        for (Method m : Transport.class.getMethods()) {
            if (m.isDefault() || java.lang.reflect.Modifier.isAbstract(m.getModifiers())) {
                Method own = ForwardingTransport.class.getMethod(m.getName(), m.getParameterTypes());
                assertSame(ForwardingTransport.class, own.getDeclaringClass(), m.getName() + " is not forwarded");
            }
        }
    }
}
