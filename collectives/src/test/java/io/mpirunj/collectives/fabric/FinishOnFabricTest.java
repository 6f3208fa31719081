package io.mpirunj.collectives.fabric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.mpirunj.Buffer;
import io.mpirunj.Mpi;
import io.mpirunj.fabric.wormhole.WormholeParams;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.fabric.FabricEmulation;
import io.mpirunj.testing.LocalCluster;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Mpi.finish beside an emulated fabric's held messages (ranks as threads): the fence's own messages pass the
 * fabric at once, ahead of a message it still holds, and must not count as that message's arrival (the receive
 * of a message sent before Mpi.finish failed as if it could never come: a review's finding).
 */
class FinishOnFabricTest {
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aMessageTheFabricStillHoldsFromARankInFinishIsReceived() {
        // 64 KiB on a 4x4 mesh at 10 µs per model unit: held about 1.3 s
        FabricEmulation emulation = FabricEmulation.of("mesh:4x4", null, WormholeParams.PAPER.toString(), 10.0, null, 2);
        RuntimeConfig config = emulation.install(RuntimeConfig.defaults());
        LocalCluster.run(2, config, Duration.ofSeconds(100), world -> {
            byte[] data = new byte[64 * 1024];
            byte[] expected = new byte[data.length];
            Arrays.fill(expected, (byte) 9);
            if (world.rank() == 1) {
                world.send(Buffer.of(expected), 0, 5);
            } else {
                world.recv(Buffer.of(data), 1, 5);
                assertArrayEquals(expected, data);
            }
            Mpi.finish();
        });
    }
}
