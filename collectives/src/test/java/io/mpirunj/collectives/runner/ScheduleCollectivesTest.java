package io.mpirunj.collectives.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.collectives.ScheduleCollectives;
import io.mpirunj.collectives.multicast.MulticastAlgorithms;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveOp;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import io.mpirunj.testing.LocalCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every schedule algorithm, forced by name through the registry, as bcast and as multicast, at
 * p = 1..17 ranks as threads: several roots, sizes 0, 1, odd, above the 64 KiB eager limit, byte,
 * int and direct buffers, random multicast groups; every receiver checked against the root's data.
 * The collectives of one case run back to back with no barrier between them, so they also check that
 * consecutive collectives on one communicator stay apart.
 */
class ScheduleCollectivesTest {

    /** Byte sizes (converted to element counts, rounded down, per buffer kind). */
    private static final int[] SIZES = {0, 1, 13, 1001, 100_003};
    /** Above this, one buffer kind per root (rotating) keeps the suite quick. */
    private static final int LARGE = 64 * 1024;
    /** Shorter than the tests' timeouts, so a hang reports where every rank was stuck. */
    private static final Duration CLUSTER_TIMEOUT = Duration.ofSeconds(30);

    static Stream<Arguments> cases() {
        return MulticastAlgorithms.names().stream().flatMap(name -> Stream.of(CollectiveOp.BCAST, CollectiveOp.MULTICAST)
                .flatMap(op -> IntStream.rangeClosed(1, 17).mapToObj(p -> Arguments.of(op.cliName() + "=" + name, op, p))));
    }

    @ParameterizedTest(name = "{0} p={2}")
    @MethodSource("cases")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void deliversTheRootsData(String forced, CollectiveOp op, int p) {
        LocalCluster.run(p, RuntimeConfig.defaults().withForcedCollectives(forced), CLUSTER_TIMEOUT, world -> {
            if (op == CollectiveOp.BCAST) {
                bcasts(world, forced, SIZES, Payloads.values());
            } else {
                multicasts(world, forced, SIZES, Payloads.values());
            }
        });
    }

    static Stream<Arguments> largeCases() {
        return MulticastAlgorithms.names().stream().flatMap(name -> Stream.of(CollectiveOp.BCAST, CollectiveOp.MULTICAST)
                .flatMap(op -> IntStream.of(3, 16).mapToObj(p -> Arguments.of(op.cliName() + "=" + name, op, p))));
    }

    /** One 4 MiB collective, where the pipelined variants cut many segments. */
    @ParameterizedTest(name = "{0} p={2}, 4 MiB")
    @MethodSource("largeCases")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void fourMebibytes(String forced, CollectiveOp op, int p) {
        int bytes = 4 << 20;
        int root = p / 2;
        LocalCluster.run(p, RuntimeConfig.defaults().withForcedCollectives(forced), CLUSTER_TIMEOUT, world -> {
            if (op == CollectiveOp.BCAST) {
                bcastOnce(world, forced, bytes, Payloads.INTS, root, 7);
                return;
            }
            // every rank but the last, in reverse order (the root, p / 2, is among them)
            int[] group = IntStream.range(0, p - 1).map(r -> p - 2 - r).toArray();
            if (world.rank() == p - 1) {
                return;
            }
            Buffer buf = Payloads.BYTES.allocate(bytes);
            byte[] expected = Payloads.pattern(bytes, 8);
            Payloads.fill(buf, world.rank() == root ? expected : Payloads.pattern(bytes, 9));
            world.multicast(buf, root, group);
            Payloads.check(buf, expected, forced + " p=" + p + " 4 MiB rank=" + world.rank());
        });
    }

    static Stream<Arguments> rendezvousCases() {
        return MulticastAlgorithms.names().stream().flatMap(name -> Stream.of(CollectiveOp.BCAST, CollectiveOp.MULTICAST)
                .flatMap(op -> IntStream.of(3, 8).mapToObj(p -> Arguments.of(op.cliName() + "=" + name, op, p))));
    }

    /** Eager limit 0: every message is a rendezvous, so a send completes only once its receive is posted. */
    @ParameterizedTest(name = "{0} p={2}, everything rendezvous")
    @MethodSource("rendezvousCases")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void rendezvousOnly(String forced, CollectiveOp op, int p) {
        int[] sizes = {0, 5, 3001};
        Payloads[] kinds = {Payloads.BYTES, Payloads.INTS};
        LocalCluster.run(p, RuntimeConfig.defaults().withEagerLimit(0).withForcedCollectives(forced), CLUSTER_TIMEOUT,
                world -> {
            if (op == CollectiveOp.BCAST) {
                bcasts(world, forced, sizes, kinds);
            } else {
                multicasts(world, forced, sizes, kinds);
            }
        });
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void everyEntryIsRegisteredForBothOperationsBelowTheBaselines() {
        CollectiveRegistry registry = new CollectiveRegistry(CollectiveRegistry.discover(getClass().getClassLoader()), null);
        for (CollectiveOp op : List.of(CollectiveOp.BCAST, CollectiveOp.MULTICAST)) {
            for (String name : MulticastAlgorithms.names()) {
                CollectiveAlgorithm a = registry.lookup(op, name);
                assertEquals(ScheduleCollectives.PRIORITY, a.priority());
                assertTrue(a.description().contains("model "), a.description());
            }
            assertTrue(registry.select(op, CollectiveAlgorithm.class).priority() > ScheduleCollectives.PRIORITY,
                    "the default " + op.cliName() + " must stay a baseline");
        }
    }

    // ---- scenarios ------------------------------------------------------------------------------

    private static int[] roots(int p) {
        return new LinkedHashSet<>(List.of(0, p / 2, p - 1)).stream().mapToInt(Integer::intValue).toArray();
    }

    private static void bcasts(Comm world, String forced, int[] sizes, Payloads[] kinds) {
        int seed = 0;
        for (int root : roots(world.size())) {
            for (int bytes : sizes) {
                for (Payloads kind : kinds) {
                    if ((bytes <= LARGE || kind == kinds[root % Math.min(3, kinds.length)])) {
                        bcastOnce(world, forced, bytes, kind, root, ++seed);
                    }
                }
            }
        }
    }

    private static void bcastOnce(Comm world, String forced, int bytes, Payloads kind, int root, long seed) {
        Buffer buf = kind.allocate(bytes / kind.allocate(1).type().bytes());
        byte[] expected = Payloads.pattern(buf.byteLength(), seed);
        if (world.rank() == root) {
            Payloads.fill(buf, expected);
        } else {
            Payloads.fill(buf, Payloads.pattern(buf.byteLength(), ~seed));
        }
        world.bcast(buf, root);
        Payloads.check(buf, expected, forced + " p=" + world.size() + " root=" + root + " rank=" + world.rank());
    }

    /** Groups for p ranks, the same on every rank: random subsets in random order, with and without the root. */
    static List<int[]> groups(int p, int root, Random random) {
        List<int[]> out = new ArrayList<>();
        out.add(new int[0]); // the root alone
        List<Integer> all = new ArrayList<>();
        for (int r = 0; r < p; r++) {
            all.add(r);
        }
        java.util.Collections.shuffle(all, random);
        out.add(all.stream().mapToInt(Integer::intValue).toArray()); // everyone, root somewhere inside
        for (int g = 0; g < 2; g++) {
            Set<Integer> members = new LinkedHashSet<>();
            int size = 1 + random.nextInt(Math.max(1, p - 1));
            while (members.size() < Math.min(size, p)) {
                members.add(random.nextInt(p));
            }
            if (g == 1) {
                members.remove(root); // a group that does not list the root
            }
            out.add(members.stream().mapToInt(Integer::intValue).toArray());
        }
        return out;
    }

    private static void multicasts(Comm world, String forced, int[] sizes, Payloads[] kinds) {
        int p = world.size();
        Random random = new Random(1234 + p);
        int seed = 0;
        for (int root : roots(p)) {
            for (int[] group : groups(p, root, random)) {
                boolean member = world.rank() == root || IntStream.of(group).anyMatch(g -> g == world.rank());
                for (int bytes : sizes) {
                    for (Payloads kind : kinds) {
                        seed++;
                        if (!member || bytes > LARGE && kind != kinds[root % Math.min(3, kinds.length)]) {
                            continue; // not in the group: must not be needed by anyone
                        }
                        Buffer buf = kind.allocate(bytes / kind.allocate(1).type().bytes());
                        byte[] expected = Payloads.pattern(buf.byteLength(), seed);
                        Payloads.fill(buf, world.rank() == root ? expected : Payloads.pattern(buf.byteLength(), ~seed));
                        world.multicast(buf, root, group);
                        Payloads.check(buf, expected, forced + " p=" + p + " root=" + root + " group="
                                + java.util.Arrays.toString(group) + " rank=" + world.rank());
                    }
                }
            }
        }
    }
}
