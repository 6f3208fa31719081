package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Op;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.Request;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.stream.IntStream;

/**
 * One call of any collective algorithm straight through the SPI, on a channel the test chooses (so
 * it can count or break what the algorithm sends), with small int buffers of {@code n} elements per
 * rank (per block for the "v" and reduce-scatter counts, which vary by rank and include zeros).
 */
final class OneCall {
    private OneCall() {
    }

    /**
     * The same call made non-blocking: the algorithm's {@code iX} twin of the {@code x} that
     * {@link #run} would call, started and returned unfinished.
     */
    static Request start(CollectiveAlgorithm a, CollChannel ch, int n) {
        Request[] started = new Request[1];
        CollectiveAlgorithm nonBlocking = (CollectiveAlgorithm) Proxy.newProxyInstance(a.getClass().getClassLoader(),
                interfaces(a.getClass()), (proxy, m, args) -> {
                    try {
                        if (m.getReturnType() == void.class) {
                            Method twin = m.getDeclaringClass().getMethod("i" + m.getName(), m.getParameterTypes());
                            started[0] = (Request) twin.invoke(a, args);
                            return null;
                        }
                        return m.invoke(a, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        run(nonBlocking, ch, n);
        if (started[0] == null) {
            throw new AssertionError("no non-blocking call for " + a.op());
        }
        return started[0];
    }

    /** Every interface {@code c} implements, also through its superclasses (the proxy must have them all). */
    private static Class<?>[] interfaces(Class<?> c) {
        java.util.Set<Class<?>> all = new java.util.LinkedHashSet<>();
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            all.addAll(java.util.List.of(k.getInterfaces()));
        }
        return all.toArray(new Class<?>[0]);
    }

    static void run(CollectiveAlgorithm a, CollChannel ch, int n) {
        int p = ch.size();
        int r = ch.rank();
        int root = p / 2;
        int[] counts = IntStream.range(0, p).map(j -> CollectiveScenarios.vcount(n, j, 1)).toArray();
        int[] displs = new int[p];
        for (int j = 1; j < p; j++) {
            displs[j] = displs[j - 1] + counts[j - 1];
        }
        int total = displs[p - 1] + counts[p - 1];
        Buffer one = Buffer.of(new int[n]);
        Buffer all = Buffer.of(new int[p * n]);
        if (a instanceof CollectiveAlgorithm.Barrier b) {
            b.barrier(ch);
        } else if (a instanceof CollectiveAlgorithm.Bcast b) {
            b.bcast(ch, one, root);
        } else if (a instanceof CollectiveAlgorithm.Multicast m) {
            m.multicast(ch, one, root, IntStream.range(0, p).filter(x -> x != root).toArray());
        } else if (a instanceof CollectiveAlgorithm.Alltoall x) {
            x.alltoall(ch, all, Buffer.of(new int[p * n]));
        } else if (a instanceof CollectiveAlgorithm.Alltoallv x) {
            int[] even = IntStream.range(0, p).map(j -> n).toArray();
            int[] at = IntStream.range(0, p).map(j -> j * n).toArray();
            x.alltoallv(ch, all, even, at, Buffer.of(new int[p * n]), even, at);
        } else if (a instanceof CollectiveAlgorithm.Gather g) {
            g.gather(ch, one, all, root);
        } else if (a instanceof CollectiveAlgorithm.Gatherv g) {
            g.gatherv(ch, Buffer.of(new int[counts[r]]), Buffer.of(new int[total]), counts, displs, root);
        } else if (a instanceof CollectiveAlgorithm.Scatter s) {
            s.scatter(ch, all, one, root);
        } else if (a instanceof CollectiveAlgorithm.Scatterv s) {
            s.scatterv(ch, Buffer.of(new int[total]), counts, displs, Buffer.of(new int[counts[r]]), root);
        } else if (a instanceof CollectiveAlgorithm.Allgather g) {
            g.allgather(ch, one, all);
        } else if (a instanceof CollectiveAlgorithm.Allgatherv g) {
            g.allgatherv(ch, Buffer.of(new int[counts[r]]), Buffer.of(new int[total]), counts, displs);
        } else if (a instanceof CollectiveAlgorithm.Reduce x) {
            x.reduce(ch, one, Buffer.of(new int[n]), Op.SUM, root);
        } else if (a instanceof CollectiveAlgorithm.Allreduce x) {
            x.allreduce(ch, one, Buffer.of(new int[n]), Op.SUM);
        } else if (a instanceof CollectiveAlgorithm.ReduceScatter x) {
            x.reduceScatter(ch, Buffer.of(new int[total]), Buffer.of(new int[counts[r]]), counts, Op.SUM);
        } else if (a instanceof CollectiveAlgorithm.ReduceScatterBlock x) {
            x.reduceScatterBlock(ch, all, one, Op.SUM);
        } else if (a instanceof CollectiveAlgorithm.Scan x) {
            x.scan(ch, one, Buffer.of(new int[n]), Op.SUM);
        } else if (a instanceof CollectiveAlgorithm.Exscan x) {
            x.exscan(ch, one, Buffer.of(new int[n]), Op.SUM);
        } else {
            throw new AssertionError("no call for " + a.op());
        }
    }
}
