package com.example.spmd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mpirunj.testkit.MpiTesting;
import java.util.List;
import org.junit.jupiter.api.Test;

class PiTest {

    @Test
    void fourRanksAgreeOnPi() {
        List<Double> estimates = MpiTesting.callRanks(4, world -> Pi.pi(world, 1_000_000));
        for (double pi : estimates) {
            assertEquals(estimates.get(0), pi, 0.0, "every rank gets the same sum");
            assertEquals(Math.PI, pi, 1e-10);
        }
    }

    @Test
    void oneRankIsTheSerialProgram() {
        assertEquals(Math.PI, MpiTesting.callRanks(1, world -> Pi.pi(world, 1_000)).get(0), 1e-6);
    }
}
