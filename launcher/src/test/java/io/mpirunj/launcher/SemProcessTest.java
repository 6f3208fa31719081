package io.mpirunj.launcher;

import io.mpirunj.testapps.AlltoallCheck;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** SEM all-to-all with 16 ranks as processes on {@code --fabric torus:4x4}: every element checked. */
class SemProcessTest {
    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void semAlltoallAsProcesses() {
        LauncherRun run = LauncherRun.of("-np", "16", "--fabric", "torus:4x4", "--coll", "alltoall=sem",
                AlltoallCheck.class.getName());
        run.assertSucceededPrinting("passed alltoall");
    }
}
