package io.mpirunj.runtime.p2p;

import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.testing.LocalCluster;
import io.mpirunj.testing.P2pScenarios;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every point-to-point scenario at np 1..9 with ranks as threads. */
class P2pThreadsTest {
    static Stream<Arguments> cases() {
        return P2pScenarios.names().stream()
                .flatMap(name -> IntStream.rangeClosed(1, 9)
                        .filter(np -> !name.equals("sixteenMiB") || np <= 4)
                        .mapToObj(np -> Arguments.of(name, np)));
    }

    @ParameterizedTest(name = "{0} np={1}")
    @MethodSource("cases")
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void scenario(String name, int np) {
        LocalCluster.run(np, world -> P2pScenarios.run(name, world));
    }

    @ParameterizedTest(name = "{0} np=3, everything rendezvous")
    @MethodSource("names")
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void allRendezvous(String name) {
        LocalCluster.run(3, RuntimeConfig.defaults().withEagerLimit(0), world -> P2pScenarios.run(name, world));
    }

    static Stream<String> names() {
        return P2pScenarios.names().stream();
    }
}
