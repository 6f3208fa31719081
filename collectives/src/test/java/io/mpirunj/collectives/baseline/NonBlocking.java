package io.mpirunj.collectives.baseline;

import io.mpirunj.Comm;
import io.mpirunj.Request;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * A {@link Comm} whose blocking collectives start their non-blocking twin ({@code bcast} calls
 * {@code ibcast}, ...) and await it, so every scenario written against the blocking API also tests
 * the {@code i*} path. Everything else goes straight to the wrapped communicator.
 */
final class NonBlocking {
    private NonBlocking() {
    }

    static Comm of(Comm comm) {
        InvocationHandler h = (proxy, method, args) -> {
            Method twin = twin(method);
            try {
                if (twin != null) {
                    ((Request) twin.invoke(comm, args)).await();
                    return null;
                }
                return method.invoke(comm, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return (Comm) Proxy.newProxyInstance(Comm.class.getClassLoader(), new Class<?>[] {Comm.class}, h);
    }

    /** {@code iX} for a void collective {@code x} with the same parameters, or null. */
    private static Method twin(Method m) {
        if (m.getReturnType() != void.class || m.getName().startsWith("i")) {
            return null;
        }
        String name = "i" + m.getName();
        try {
            Method t = Comm.class.getMethod(name, m.getParameterTypes());
            return t.getReturnType() == Request.class ? t : null;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }
}
