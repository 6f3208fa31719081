package io.mpirunj.collectives.multicast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Instruction;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.schedule.Verifier;
import io.mpirunj.collectives.sim.Evaluation;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every registered builder, every k in 1..40, several roots and sizes: the verifier accepts it. */
class BuilderVerificationTest {

    private static final CostModel[] MODELS = {
        ModelSpec.parse("hold=20+0.02m,end=55+0.07m"),
        ModelSpec.parse("logp:L=6,o=2,g=4"),
        ModelSpec.parse("hold=30,end=10"),
        ModelSpec.parse("hold=10,end=40,ports=3"),
    };
    private static final long[] SIZES = {0, 1, 7, 4096, 1 << 20};

    static Stream<Arguments> algorithms() {
        return MulticastAlgorithms.names().stream().map(Arguments::of);
    }

    private static int[] roots(int k) {
        return new TreeSet<>(List.of(0, 1 % k, k / 2, k - 1)).stream().mapToInt(Integer::intValue).toArray();
    }

    @ParameterizedTest
    @MethodSource("algorithms")
    @Timeout(60)
    void verifierAcceptsEveryScheduleForUpTo40Ranks(String name) {
        for (int k = 1; k <= 40; k++) {
            for (int root : roots(k)) {
                for (int m = 0; m < MODELS.length; m++) {
                    long bytes = SIZES[(k + m) % SIZES.length];
                    Schedule s = MulticastAlgorithms.multicast(name, k, root, bytes, MODELS[m]);
                    List<String> errors = Verifier.verify(s);
                    assertEquals(List.of(), errors, () -> s.describe());
                    assertEquals(name, s.algorithm());
                    assertEquals(Collective.MULTICAST, s.collective());
                    assertEquals(k, s.ranks());
                    assertEquals(root, s.root());
                    assertEquals(bytes, s.messageBytes());
                    assertTreeShaped(s);
                }
            }
        }
    }

    /**
     * Each non-root rank receives every unit from one parent (a RECV_FIRST_OF's first peer is its
     * first tree's parent); (k - 1) x units messages in all, plus one per redundant copy.
     */
    private static void assertTreeShaped(Schedule s) {
        int sends = 0;
        int redundant = 0;
        for (int r = 0; r < s.ranks(); r++) {
            TreeSet<Integer> parents = new TreeSet<>();
            for (Instruction in : s.program(r)) {
                if (in.isSend()) {
                    sends++;
                } else {
                    parents.add(in.peer());
                    redundant += in.peerCount() - 1;
                }
            }
            assertEquals(r == s.root() ? 0 : 1, parents.size(), "rank " + r + " parents " + parents);
        }
        assertEquals((s.ranks() - 1) * s.units().size() + redundant, sends);
    }

    @ParameterizedTest
    @MethodSource("algorithms")
    @Timeout(60)
    void stepsAreTheRoundsOfTheRoundEvaluation(String name) {
        CostModel model = MODELS[1];
        for (int k = 1; k <= 40; k++) {
            Schedule s = MulticastAlgorithms.multicast(name, k, k / 3, 0, model);
            for (var msg : Simulator.rounds(s, model).messages()) {
                assertEquals(msg.end(), msg.step() * model.tEnd(0), name + " k=" + k + " " + msg);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("algorithms")
    void bcastIsTheMulticastOverAllRanks(String name) {
        CostModel model = MODELS[0];
        Schedule bcast = MulticastAlgorithms.bcast(name, 12, 5, 100, model);
        Schedule multicast = MulticastAlgorithms.multicast(name, 12, 5, 100, model);
        assertEquals(Collective.BCAST, bcast.collective());
        for (int r = 0; r < 12; r++) {
            assertEquals(multicast.program(r), bcast.program(r));
        }
        assertEquals(Simulator.simulate(multicast, model, Evaluation.EVENT).completion(),
                Simulator.simulate(bcast, model, Evaluation.EVENT).completion());
        assertTrue(Verifier.verify(bcast).isEmpty());
    }
}
