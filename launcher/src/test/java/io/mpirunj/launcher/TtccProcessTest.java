package io.mpirunj.launcher;

import io.mpirunj.testapps.TtccBcast;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --coll bcast=ttcc} with ranks as processes over TCP: every root, 0 B to 4 MiB, every byte checked.
 * At np 4 and 5 (a power of two and not): the algorithm at np 2-17 is TtccLiveTest's, on threads; here
 * it is the wire, and a job costs a JVM start-up per rank.
 */
class TtccProcessTest {
    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {4, 5})
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void ttccBcastDeliversAsProcesses(int np) {
        LauncherRun run = LauncherRun.of("-np", Integer.toString(np), "--coll", "bcast=ttcc", TtccBcast.class.getName());
        run.assertSucceededPrinting("passed bcast np=" + np);
    }
}
