package io.mpirunj.collectives.baseline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Op;
import io.mpirunj.Request;
import io.mpirunj.Status;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveOp;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import io.mpirunj.testing.LocalCluster;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every baseline algorithm registered through {@link java.util.ServiceLoader}, forced by name, at
 * p = 1..9, 13 and 17 ranks as threads, against a reference (see {@link CollectiveScenarios}). A new baseline
 * algorithm is tested as soon as {@link BaselineCollectives} lists it.
 */
class BaselineAlgorithmsTest {
    static List<CollectiveAlgorithm> baselineAlgorithms() {
        List<CollectiveAlgorithm> out = new ArrayList<>();
        for (CollectiveAlgorithm a : CollectiveRegistry.discover(BaselineAlgorithmsTest.class.getClassLoader())) {
            if (a.getClass().getPackageName().equals(BaselineCollectives.class.getPackageName())) {
                out.add(a);
            }
        }
        return out;
    }

    /** (OP=NAME, op, p) for every baseline algorithm at each of {@code ps}. */
    private static Stream<Arguments> casesAt(int... ps) {
        return baselineAlgorithms().stream().flatMap(a -> IntStream.of(ps)
                .mapToObj(p -> Arguments.of(a.op().cliName() + "=" + a.name(), a.op(), p)));
    }

    /**
     * p = 1..9, then 13 and 17: non-powers of two above 8, and the 17 of the acceptance; a sample, as every
     * scenario at every p up to 17 would take minutes on a shared machine.
     */
    static Stream<Arguments> cases() {
        return casesAt(1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 17);
    }

    @ParameterizedTest(name = "{0} p={2}")
    @MethodSource("cases")
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void matchesReference(String forced, CollectiveOp op, int p) {
        LocalCluster.run(p, RuntimeConfig.defaults().withForcedCollectives(forced),
                world -> CollectiveScenarios.run(op, world, forced + "/" + p));
    }

    static Stream<Arguments> nonBlockingCases() {
        return casesAt(2, 5);
    }

    /** The same scenarios with every collective started non-blocking ({@code i*}) and then awaited. */
    @ParameterizedTest(name = "{0} p={2}, non-blocking")
    @MethodSource("nonBlockingCases")
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void nonBlockingMatchesReference(String forced, CollectiveOp op, int p) {
        LocalCluster.run(p, RuntimeConfig.defaults().withForcedCollectives(forced),
                world -> CollectiveScenarios.run(op, NonBlocking.of(world), forced + "/" + p + "/nb"));
    }

    /** Every algorithm with 4 MiB buffers (ints, SUM, three roots) at p = 4. */
    @ParameterizedTest(name = "{0} p=4, 4 MiB")
    @MethodSource("allAlgorithms")
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void fourMibBuffers(String forced, CollectiveAlgorithm algorithm) {
        CollectiveScenarios.fourMib = true;
        try {
            LocalCluster.run(4, RuntimeConfig.defaults().withForcedCollectives(forced),
                    world -> CollectiveScenarios.run(algorithm.op(), world, forced + "/4MiB"));
        } finally {
            CollectiveScenarios.fourMib = false;
        }
    }

    static Stream<Arguments> allAlgorithms() {
        return baselineAlgorithms().stream().map(a -> Arguments.of(a.op().cliName() + "=" + a.name(), a));
    }

    /**
     * A rank that dies before the collective (the root of a one-to-many operation, else rank 1 of 4)
     * fails the ranks that need it with {@link RankFailedException}: no hang, no other error.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("allAlgorithms")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aDeadRankFailsTheOthers(String name, CollectiveAlgorithm algorithm) {
        int p = 4;
        CollectiveOp op = algorithm.op();
        boolean fromRoot = op == CollectiveOp.BCAST || op == CollectiveOp.MULTICAST || op == CollectiveOp.SCATTER
                || op == CollectiveOp.SCATTERV;
        int dead = fromRoot ? p / 2 : 1; // OneCall's root is p / 2
        java.util.concurrent.atomic.AtomicReferenceArray<Throwable> seen =
                new java.util.concurrent.atomic.AtomicReferenceArray<>(p);
        AssertionError e = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
                () -> LocalCluster.run(p, RuntimeConfig.defaults(), java.time.Duration.ofSeconds(40), world -> {
                    if (world.rank() == dead) {
                        throw new IllegalStateException("rank " + dead + " dies");
                    }
                    try {
                        OneCall.run(algorithm, io.mpirunj.runtime.spi.CollChannel.of(world), 3);
                    } catch (RuntimeException ex) {
                        seen.set(world.rank(), ex);
                        throw ex;
                    }
                }));
        assertTrue(e.getMessage().contains("rank " + dead + " dies"), e.getMessage());
        int failed = 0;
        for (int r = 0; r < p; r++) {
            Throwable t = seen.get(r);
            if (t != null) {
                org.junit.jupiter.api.Assertions.assertInstanceOf(io.mpirunj.RankFailedException.class, t,
                        name + " rank " + r);
                failed++;
            }
        }
        assertTrue(failed > 0, name + ": no rank noticed that rank " + dead + " died");
    }

    static Stream<Arguments> rendezvousCases() {
        return casesAt(2, 5, 8);
    }

    /** With an eager limit of 0 every message is a rendezvous: no algorithm may rely on sends completing before their receive is posted. */
    @ParameterizedTest(name = "{0} p={2}, everything rendezvous")
    @MethodSource("rendezvousCases")
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void matchesReferenceWithRendezvousOnly(String forced, CollectiveOp op, int p) {
        LocalCluster.run(p, RuntimeConfig.defaults().withEagerLimit(0).withForcedCollectives(forced),
                world -> CollectiveScenarios.run(op, world, forced + "/" + p + "/rndv"));
    }

    @Test
    void everyOperationHasABaselineDefault() {
        CollectiveRegistry registry = new CollectiveRegistry(new BaselineCollectives().algorithms(), null);
        for (CollectiveOp op : CollectiveOp.values()) {
            CollectiveAlgorithm chosen = registry.select(op, CollectiveAlgorithm.class);
            assertEquals(op, chosen.op());
            assertTrue(chosen.priority() > 0, op + " default " + chosen.name() + " should have a positive priority");
        }
    }

    @Test
    void providerIsRegisteredAndEachAlgorithmImplementsItsOperation() {
        List<CollectiveAlgorithm> found = baselineAlgorithms();
        assertEquals(new BaselineCollectives().algorithms().size(), found.size(),
                "BaselineCollectives must be listed in META-INF/services");
        Set<String> names = new HashSet<>();
        for (CollectiveAlgorithm a : found) {
            assertTrue(names.add(a.op().cliName() + "=" + a.name()), "duplicate " + a.name());
            assertTrue(a.name().matches("[a-z0-9]+(-[a-z0-9]+)*"), "not kebab-case: " + a.name());
            assertFalse(a.description().isBlank(), a.name());
            // the interface of its op() (a class may serve two ops, e.g. scan and exscan: op() says which)
            String expected = Stream.of(a.op().cliName().split("_"))
                    .map(w -> Character.toUpperCase(w.charAt(0)) + w.substring(1)).collect(Collectors.joining());
            assertTrue(Stream.<Class<?>>iterate(a.getClass(), c -> c != null, Class::getSuperclass)
                    .flatMap(c -> Stream.of(c.getInterfaces()))
                    .anyMatch(i -> i.getEnclosingClass() == CollectiveAlgorithm.class
                            && i.getSimpleName().equals(expected)),
                    a.getClass().getSimpleName() + " must implement CollectiveAlgorithm." + expected);
        }
    }

    /**
     * Different collectives back to back with the defaults, with a user wildcard receive pending the
     * whole time: collective traffic must never match user point-to-point, and no collective may
     * match another's messages.
     */
    @ParameterizedTest(name = "p={0}")
    @MethodSource("sizes")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void mixedCollectivesStayApart(int p) {
        LocalCluster.run(p, world -> {
            int r = world.rank();
            int[] user = new int[1];
            Request pending = world.irecv(Buffer.of(user), Comm.ANY_SOURCE, Comm.ANY_TAG);
            for (int iter = 0; iter < 3; iter++) {
                int root = iter % p;
                int[] b = new int[5];
                if (r == root) {
                    java.util.Arrays.fill(b, 42 + iter);
                }
                world.bcast(Buffer.of(b), root);
                assertEquals(42 + iter, b[4]);
                int[] sum = new int[3];
                world.allreduce(Buffer.of(new int[] {r, 1, iter}), Buffer.of(sum), Op.SUM);
                assertEquals(p * (p - 1) / 2, sum[0]);
                assertEquals(p, sum[1]);
                int[] all = new int[p];
                world.allgather(Buffer.of(new int[] {r * 10}), Buffer.of(all));
                assertEquals((p - 1) * 10, all[p - 1]);
                int[] red = new int[1];
                world.reduce(Buffer.of(new int[] {r}), Buffer.of(red), Op.MAX, root);
                if (r == root) {
                    assertEquals(p - 1, red[0]);
                }
                world.barrier();
                int[] a2a = new int[p];
                world.alltoall(Buffer.of(IntStream.range(0, p).map(j -> r * 100 + j).toArray()), Buffer.of(a2a));
                assertEquals((p - 1) * 100 + r, a2a[p - 1]);
            }
            assertFalse(pending.test(), "a collective message matched a user wildcard receive");
            world.barrier();
            // Release the wildcard receive: each rank sends itself one message.
            world.send(Buffer.of(new int[] {7}), r, 3);
            Status s = pending.await();
            assertEquals(r, s.source());
            assertEquals(3, s.tag());
            assertEquals(7, user[0]);
        });
    }

    /** Collectives on a split communicator interleaved with the world's: each stays in its own context. */
    @ParameterizedTest(name = "p={0}")
    @MethodSource("sizes")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void collectivesOnSplitCommunicators(int p) {
        LocalCluster.run(p, world -> {
            int r = world.rank();
            try (Comm half = world.split(r % 2, -r)) { // reversed order inside each half
                int q = half.size();
                for (int iter = 0; iter < 3; iter++) {
                    int[] w = new int[2];
                    if (r == 0) {
                        w[0] = 100 + iter;
                    }
                    int[] h = new int[2];
                    if (half.rank() == 0) {
                        h[0] = 1000 * (r % 2) + iter;
                    }
                    half.bcast(Buffer.of(h), 0);
                    world.bcast(Buffer.of(w), 0);
                    assertEquals(100 + iter, w[0]);
                    assertEquals(1000 * (r % 2) + iter, h[0]);
                    long[] sum = new long[1];
                    half.allreduce(Buffer.of(new long[] {half.rank()}), Buffer.of(sum), Op.SUM);
                    assertEquals((long) q * (q - 1) / 2, sum[0]);
                    int[] ranks = new int[q];
                    half.allgather(Buffer.of(new int[] {r}), Buffer.of(ranks));
                    for (int i = 0; i < q; i++) {
                        assertEquals(r % 2, ranks[i] % 2);
                        assertTrue(i == 0 || ranks[i] < ranks[i - 1], "split key orders ranks descending");
                    }
                    world.barrier();
                }
            }
        });
    }

    static IntStream sizes() {
        return IntStream.of(1, 2, 3, 5, 8);
    }
}
