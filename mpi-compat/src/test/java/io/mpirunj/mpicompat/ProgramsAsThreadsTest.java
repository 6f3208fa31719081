package io.mpirunj.mpicompat;

import io.mpirunj.mpicompat.programs.CollectivesArrays;
import io.mpirunj.mpicompat.programs.CollectivesDirect;
import io.mpirunj.mpicompat.programs.Hello;
import io.mpirunj.mpicompat.programs.NonBlocking;
import io.mpirunj.mpicompat.programs.Ring;
import io.mpirunj.mpicompat.programs.Split;
import io.mpirunj.mpicompat.programs.UserOp;
import io.mpirunj.testing.LocalCluster;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Open MPI-style programs, written against package {@code mpi} only, run with 1 to 8 ranks as
 * threads. Each program checks every element it receives and throws on the first wrong one.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProgramsAsThreadsTest {
    private static final String[] NO_ARGS = {};

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void hello(int np) {
        LocalCluster.run(np, world -> Hello.main(NO_ARGS));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void ring(int np) {
        LocalCluster.run(np, world -> Ring.main(new String[] {"4"}));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void everyCollectiveOnArrays(int np) {
        LocalCluster.run(np, world -> CollectivesArrays.main(NO_ARGS));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void everyCollectiveOnDirectBuffers(int np) {
        LocalCluster.run(np, world -> CollectivesDirect.main(NO_ARGS));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void nonBlockingExchange(int np) {
        LocalCluster.run(np, world -> NonBlocking.main(NO_ARGS));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void communicatorSplit(int np) {
        LocalCluster.run(np, world -> Split.main(NO_ARGS));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void userDefinedOp(int np) {
        LocalCluster.run(np, world -> UserOp.main(NO_ARGS));
    }
}
