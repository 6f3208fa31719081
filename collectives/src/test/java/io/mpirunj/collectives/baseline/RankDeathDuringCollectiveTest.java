package io.mpirunj.collectives.baseline;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.RankFailedException;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.testing.GatedChannel;
import io.mpirunj.testing.LocalCluster;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A rank that dies in the middle of a collective (some of its messages sent or posted, the rest
 * not, every other rank inside the same call) fails the others with {@link RankFailedException}:
 * no hang, no other error. Every baseline algorithm (each runs a schedule), blocking and
 * non-blocking, at p = 4 ranks as threads; with the default eager limit (a survivor whose sends went
 * out eagerly and who needs nothing more from the victim may finish) and with every message a
 * rendezvous (then some survivor always waits for the victim, and must fail).
 */
class RankDeathDuringCollectiveTest {
    private static final int P = 4;
    private static final int N = 3;

    static Stream<Arguments> cases() {
        return BaselineAlgorithmsTest.baselineAlgorithms().stream().flatMap(a -> Stream.of(false, true)
                .flatMap(nb -> Stream.of(false, true).map(rndv -> Arguments.of(a.op().cliName() + "=" + a.name(), a, nb,
                        rndv))));
    }

    @ParameterizedTest(name = "{0}, non-blocking={2}, rendezvous only={3}")
    @MethodSource("cases")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aRankDyingMidwayFailsTheOthers(String name, CollectiveAlgorithm algorithm, boolean nonBlocking,
            boolean rendezvousOnly) {
        RuntimeConfig config = rendezvousOnly ? RuntimeConfig.defaults().withEagerLimit(0) : RuntimeConfig.defaults();
        int[] ops = operationsPerRank(algorithm);
        int victim = 0;
        for (int r = 1; r < P; r++) {
            if (ops[r] > ops[victim]) {
                victim = r;
            }
        }
        assertTrue(ops[victim] >= 2, name + ": no rank does two operations " + java.util.Arrays.toString(ops));
        int dieAt = ops[victim] / 2; // at least one operation done before, at least one left after
        int survivorsWithOps = 0;
        for (int r = 0; r < P; r++) {
            survivorsWithOps += r != victim && ops[r] > 0 ? 1 : 0;
        }
        CountDownLatch othersInside = new CountDownLatch(survivorsWithOps);
        CountDownLatch victimMidway = new CountDownLatch(1);
        AtomicReferenceArray<Throwable> seen = new AtomicReferenceArray<>(P);
        int dead = victim;
        String dies = "rank " + dead + " dies at its operation #" + dieAt + " of " + ops[dead];
        AssertionError e = assertThrows(AssertionError.class, () -> LocalCluster.run(P, config,
                Duration.ofSeconds(40), world -> {
                    CollChannel base = CollChannel.of(world);
                    if (world.rank() == dead) {
                        CollChannel ch = new GatedChannel(base) {
                            @Override
                            protected boolean proceed(int index) throws InterruptedException {
                                if (index < dieAt) {
                                    return true;
                                }
                                if (index == dieAt) {
                                    if (!nonBlocking) {
                                        othersInside.await();
                                        throw new IllegalStateException(dies);
                                    }
                                    victimMidway.countDown();
                                }
                                return false; // non-blocking: withheld, the rank thread dies instead
                            }
                        };
                        if (nonBlocking) {
                            OneCall.start(algorithm, ch, N);
                            victimMidway.await();
                            othersInside.await();
                            throw new IllegalStateException(dies);
                        }
                        OneCall.run(algorithm, ch, N);
                        return;
                    }
                    CollChannel ch = new GatedChannel(base) {
                        @Override
                        protected boolean proceed(int index) {
                            if (index == 0) {
                                othersInside.countDown();
                            }
                            return true;
                        }
                    };
                    try {
                        if (nonBlocking) {
                            OneCall.start(algorithm, ch, N).await();
                        } else {
                            OneCall.run(algorithm, ch, N);
                        }
                    } catch (RuntimeException ex) {
                        seen.set(world.rank(), ex);
                        throw ex;
                    }
                }));
        assertTrue(e.getMessage().contains(dies), e.getMessage());
        int failed = 0;
        for (int r = 0; r < P; r++) {
            Throwable t = seen.get(r);
            if (t != null) {
                assertInstanceOf(RankFailedException.class, t, name + " rank " + r);
                failed++;
            }
        }
        assertTrue(failed > 0 || !rendezvousOnly, name + ": no rank noticed that rank " + dead + " died");
    }

    /** Sends and receives each rank's call makes (a run without failures). */
    private static int[] operationsPerRank(CollectiveAlgorithm algorithm) {
        AtomicIntegerArray count = new AtomicIntegerArray(P);
        LocalCluster.run(P, world -> OneCall.run(algorithm, new GatedChannel(CollChannel.of(world)) {
            @Override
            protected boolean proceed(int index) {
                count.incrementAndGet(world.rank());
                return true;
            }
        }, N));
        int[] out = new int[P];
        for (int r = 0; r < P; r++) {
            out[r] = count.get(r);
        }
        return out;
    }
}
