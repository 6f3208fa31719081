package io.mpirunj.collectives.torus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.sim.Simulation;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.placement.Placement;
import io.mpirunj.fabric.topology.Topology;
import io.mpirunj.fabric.wormhole.NodeModel;
import io.mpirunj.fabric.wormhole.WormholeNetwork;
import io.mpirunj.fabric.wormhole.WormholeParams;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SEM on the flit-level wormhole engine (one-port torus, paper 000's parameters): no message
 * ever waits for a channel, so no contention event is reported.
 */
class SemWormholeTest {

    static Simulation flit(Schedule s, int n) {
        WormholeNetwork torus = WormholeNetwork.flit(Topology.parse("torus:" + n + "x" + n), WormholeParams.PAPER,
                NodeModel.ONE_PORT);
        return Simulator.event(s, torus, Placement.identity(n * n));
    }

    @ParameterizedTest
    @ValueSource(ints = {16, 32})
    @Timeout(600)
    void semIsContentionFreeOnTheFlitLevelTorus(int n) {
        Simulation sim = flit(SemAlltoall.build(n, 4), n);
        assertEquals(List.of(), sim.contentions());
    }
}
