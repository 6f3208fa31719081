package io.mpirunj.runtime.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Which operation an algorithm serves when it does not say: the one whose interface it implements. */
class CollectiveOpTest {
    /** An algorithm implementing {@code interfaces}; only their default methods may be called. */
    private static CollectiveAlgorithm implementing(Class<?>... interfaces) {
        return (CollectiveAlgorithm) Proxy.newProxyInstance(CollectiveOpTest.class.getClassLoader(), interfaces,
                InvocationHandler::invokeDefault);
    }

    @Test
    void anAlgorithmServesTheOperationWhoseInterfaceItImplements() {
        for (CollectiveOp op : CollectiveOp.values()) {
            assertEquals(op, implementing(op.algorithmType()).op());
        }
        assertEquals(CollectiveOp.values().length,
                Arrays.stream(CollectiveOp.values()).map(CollectiveOp::algorithmType).distinct().count());
    }

    @Test
    void oneThatImplementsTwoOperationsOrNoneMustSayWhichItServes() {
        IllegalArgumentException both = assertThrows(IllegalArgumentException.class,
                () -> implementing(CollectiveAlgorithm.Scan.class, CollectiveAlgorithm.Exscan.class).op());
        assertTrue(both.getMessage().endsWith(" implements both scan and exscan: its op() must say which it serves"),
                both.getMessage());
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> implementing(CollectiveAlgorithm.Parameterized.class).op());
        assertTrue(none.getMessage().endsWith(" implements no operation's interface: its op() must say which it serves"),
                none.getMessage());
    }
}
