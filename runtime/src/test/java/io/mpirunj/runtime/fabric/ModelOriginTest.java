package io.mpirunj.runtime.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mpirunj.runtime.NanoClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelOriginTest {

    /** A message the model delivered at 300 ns arrives at wall 1,500 (origin 1,000): model time pauses to read 300. */
    @Test
    void aLateArrivalPausesModelTimeAndAnEarlyOneDoesNot() {
        ModelOrigin origin = ModelOrigin.inJvm(1_000);
        assertEquals(200, origin.forgive(1_500, 300));
        assertEquals(1_200, origin.get());
        assertEquals(0, origin.forgive(1_400, 300)); // model time reads 200 < 300: not late
        assertEquals(1_200, origin.get());
        origin.advanceTo(1_100); // never back
        assertEquals(1_200, origin.get());
    }

    /** A message that arrives late does not take model time back behind a delivery the arbiter has made since. */
    @Test
    void aPauseStopsAtTheLatestDelivery() {
        ModelOrigin origin = ModelOrigin.inJvm(1_000);
        origin.delivering(450);
        assertEquals(100, origin.forgive(1_550, 300)); // reads 550; 450 was delivered: back to 450, not 300
        assertEquals(1_100, origin.get());
    }

    /** A pause never makes one thread's clock step back: it stands still until model time passes it. */
    @Test
    void theRanksClockStandsStillThroughAPause() {
        AtomicLong wall = new AtomicLong(2_000);
        ModelOrigin origin = ModelOrigin.inJvm(1_000);
        NanoClock clock = origin.modelClock(wall::get);
        assertEquals(1_000, clock.nanoTime());
        origin.forgive(2_000, 600); // late by 400
        assertEquals(1_000, clock.nanoTime()); // reads 600 underneath, holds 1,000
        wall.set(2_500);
        assertEquals(1_100, clock.nanoTime());
    }

    /** Ranks as processes: the launcher's service and each rank map one file, so a pause is seen by all. */
    @Test
    void mappingsOfOneFileShareTheOrigin(@TempDir Path dir) throws Exception {
        Path file = Files.createFile(dir.resolve("clock.bin"));
        ModelOrigin service = ModelOrigin.mapped(file, true, 5_000);
        ModelOrigin rank = ModelOrigin.mapped(file, false, 0);
        assertEquals(5_000, rank.get());
        rank.forgive(9_000, 1_000); // late by 3,000 at the rank
        assertEquals(8_000, service.get());
        service.advanceTo(7_000);
        assertEquals(8_000, rank.get());
    }
}
