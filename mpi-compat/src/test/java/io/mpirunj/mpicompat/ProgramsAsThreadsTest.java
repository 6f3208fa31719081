package io.mpirunj.mpicompat;

import io.mpirunj.mpicompat.programs.AllPrograms;
import io.mpirunj.mpicompat.programs.AllPrograms.Program;
import io.mpirunj.mpicompat.programs.CollectivesArrays;
import io.mpirunj.mpicompat.programs.CollectivesDirect;
import io.mpirunj.mpicompat.programs.Hello;
import io.mpirunj.mpicompat.programs.NonBlocking;
import io.mpirunj.mpicompat.programs.Ring;
import io.mpirunj.mpicompat.programs.Split;
import io.mpirunj.mpicompat.programs.UserOp;
import io.mpirunj.testing.LocalCluster;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Open MPI-style programs, written against package {@code mpi} only, run with 1 to 8 ranks as
 * threads. Each program checks every element it receives and throws on the first wrong one.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProgramsAsThreadsTest {
    private static final String[] NO_ARGS = {};

    static Stream<Arguments> programs() {
        Map<String, Program> programs = new LinkedHashMap<>();
        programs.put("hello", Hello::run);
        programs.put("ring", (world, args) -> Ring.run(world, new String[] {"4"}));
        programs.put("every collective on arrays", CollectivesArrays::run);
        programs.put("every collective on direct buffers", CollectivesDirect::run);
        programs.put("non-blocking exchange", NonBlocking::run);
        programs.put("communicator split", Split::run);
        programs.put("user-defined op", UserOp::run);
        return programs.entrySet().stream().flatMap(p -> IntStream.rangeClosed(1, 8)
                .mapToObj(np -> Arguments.of(p.getKey(), np, p.getValue())));
    }

    @ParameterizedTest(name = "{0} at np {1}")
    @MethodSource("programs")
    void runs(String name, int np, Program program) {
        LocalCluster.run(np, world -> AllPrograms.runAlone(program, NO_ARGS));
    }
}
