package io.mpirunj.collectives.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.MpiException;
import io.mpirunj.Request;
import io.mpirunj.Status;
import io.mpirunj.testing.ForwardingChannel;
import io.mpirunj.collectives.ScheduleCollectives;
import io.mpirunj.collectives.multicast.TtccMulticast;
import io.mpirunj.collectives.schedule.Instruction;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.HeteroSpec;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.fabric.model.PairCostModel;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveOp;
import io.mpirunj.testing.LocalCluster;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * TTCC run for real with ranks as threads: both trees send, every receiver keeps one copy and drains
 * the other, and back-to-back bcasts (distinct data each, every root) show no copy is delivered twice
 * or left to be matched by the next one.
 */
class TtccLiveTest {

    private static final Duration CLUSTER_TIMEOUT = Duration.ofSeconds(40);
    private static final int[] SIZES = {1, 1001, 100_003};

    @ParameterizedTest(name = "p={0}")
    @ValueSource(ints = {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void forcedTtccDeliversEveryByteFromEveryRoot(int p) {
        LocalCluster.run(p, RuntimeConfig.defaults().withForcedCollectives("bcast=ttcc"), CLUSTER_TIMEOUT,
                world -> bcastFromEveryRoot(world, null));
        // the default model is uniform: the trees are built on the unit matrix and T1 exists from 3 ranks
        Schedule s = TtccMulticast.build(p, 0, 1, ModelSpec.parse(ModelProvider.DEFAULT_SPEC));
        assertEquals(p >= 3, redundantCopies(s) > 0, s::describe);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void onAPairModelTheTreesFollowTheMatrixFromEveryRoot() {
        int p = 9;
        PairCostModel pairs = HeteroSpec.parse("clusters:3").real(p, new Random(5), "test-pairs");
        ScheduleCollectives provider = new ScheduleCollectives(ModelProvider.fixed(pairs, "test"), new ScheduleCache());
        CollectiveAlgorithm.Bcast ttcc = provider.algorithms().stream()
                .filter(a -> a.name().equals("ttcc") && a.op() == CollectiveOp.BCAST)
                .map(a -> (CollectiveAlgorithm.Bcast) a).findFirst().orElseThrow();
        LocalCluster.run(p, RuntimeConfig.defaults(), CLUSTER_TIMEOUT, world -> bcastFromEveryRoot(world, ttcc));
        // root 4's tree is the one built on the matrix seen from rank 4
        Schedule fromFour = TtccMulticast.build(p, 0, 1, pairs.select(new int[] {4, 5, 6, 7, 8, 0, 1, 2, 3}));
        assertTrue(redundantCopies(fromFour) > 0);
    }

    /** Every root, several sizes, each bcast with its own data, no barrier in between. */
    private static void bcastFromEveryRoot(Comm world, CollectiveAlgorithm.Bcast forced) {
        int seed = 0;
        for (int root = 0; root < world.size(); root++) {
            for (int bytes : SIZES) {
                byte[] expected = Payloads.pattern(bytes, ++seed);
                Buffer buf = Payloads.BYTES.allocate(bytes);
                Payloads.fill(buf, world.rank() == root ? expected : Payloads.pattern(bytes, -seed));
                if (forced == null) {
                    world.bcast(buf, root);
                } else {
                    forced.bcast(CollChannel.of(world), buf, root, true);
                }
                Payloads.check(buf, expected, "ttcc p=" + world.size() + " root=" + root + " bytes=" + bytes
                        + " rank=" + world.rank());
            }
        }
    }

    private static int redundantCopies(Schedule s) {
        int n = 0;
        for (int r = 0; r < s.ranks(); r++) {
            for (Instruction in : s.program(r)) {
                n += in.isSend() ? 0 : in.peerCount() - 1;
            }
        }
        return n;
    }

    /**
     * A lost copy (its parent or link failed) does not fail a RECV_FIRST_OF while another copy
     * arrives; when every copy is lost the receive fails. Rank 2 of the 3-rank TTCC (T0 0→1→2, T1 0→2)
     * loses the copy from {@code lost}.
     */
    @ParameterizedTest(name = "lost copy from rank {0}")
    @ValueSource(ints = {0, 1})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aLostCopyIsSkipped(int lost) {
        Schedule s = TtccMulticast.build(3, 0, 64, null);
        CompiledSchedule compiled = CompiledSchedule.of(s);
        LocalCluster.run(3, RuntimeConfig.defaults(), CLUSTER_TIMEOUT, world -> {
            CollChannel ch = CollChannel.of(world);
            byte[] expected = Payloads.pattern(64, 3);
            Buffer buf = Payloads.BYTES.allocate(64);
            Payloads.fill(buf, world.rank() == 0 ? expected : new byte[64]);
            CollChannel run = world.rank() == 2 ? new LosingChannel(ch, lost) : ch;
            ScheduleRunner.run(compiled, run, buf, new int[] {0, 1, 2}, world.rank(), 4242);
            Payloads.check(buf, expected, "rank " + world.rank());
            if (world.rank() == 2) {
                // the message the lost receive never took is still queued: take it, so the job ends clean
                ch.recv(Payloads.BYTES.allocate(64), lost, 4242);
            }
        });
        LocalCluster.run(3, RuntimeConfig.defaults(), CLUSTER_TIMEOUT, world -> {
            CollChannel ch = CollChannel.of(world);
            Buffer buf = Payloads.BYTES.allocate(64);
            if (world.rank() == 2) {
                MpiException e = assertThrows(MpiException.class,
                        () -> ScheduleRunner.run(compiled, new LosingChannel(ch, 0, 1), buf, new int[] {0, 1, 2}, 2, 4242));
                assertTrue(e.getMessage().contains("lost"), e.getMessage());
                ch.recv(Payloads.BYTES.allocate(64), 0, 4242);
                ch.recv(Payloads.BYTES.allocate(64), 1, 4242);
            } else {
                ScheduleRunner.run(compiled, ch, buf, new int[] {0, 1, 2}, world.rank(), 4242);
            }
        });
    }

    /** A channel whose receives from the given peers fail at once, as if their link had dropped. */
    private static final class LosingChannel extends ForwardingChannel {
        private final int[] lost;

        LosingChannel(CollChannel inner, int... lost) {
            super(inner);
            this.lost = lost;
        }

        @Override
        public Request irecv(Buffer buf, int source, int tag) {
            for (int l : lost) {
                if (l == source) {
                    return new FailedRequest(new MpiException("link from rank " + source + " lost (test)"));
                }
            }
            return inner.irecv(buf, source, tag);
        }
    }

    private record FailedRequest(MpiException error) implements Request {
        @Override
        public Status await() {
            throw error;
        }

        @Override
        public Status await(long timeout, TimeUnit unit) {
            throw error;
        }

        @Override
        public boolean test() {
            return true;
        }

        @Override
        public Status status() {
            throw error;
        }
    }
}
