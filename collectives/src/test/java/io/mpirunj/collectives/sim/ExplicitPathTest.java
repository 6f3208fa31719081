package io.mpirunj.collectives.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Instruction;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.schedule.Verifier;
import io.mpirunj.fabric.model.ModelSpec;
import io.mpirunj.fabric.topology.Mesh;
import io.mpirunj.fabric.topology.Topology;
import io.mpirunj.fabric.wormhole.NodeModel;
import io.mpirunj.fabric.wormhole.WormholeNetwork;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A send that names its own path travels it on the fabric instead of the default XY route. */
@Timeout(30)
class ExplicitPathTest {

    static final Mesh MESH = (Mesh) Topology.parse("mesh:3x3");

    private static Schedule twoRanks(int[] path, int port) {
        return Schedule.builder(Collective.BCAST, "hand", 2, 0, 64)
                .send(0, 1, 1, Block.WHOLE_ONLY, path, port)
                .recv(1, 0, 1)
                .build();
    }

    @Test
    void explicitPathIsFollowedAndDefaultRouteOtherwise() {
        int[] nodeOf = {0, 4}; // (0,0) and (1,1)
        int[] detour = {0, 3, 6, 7, 4}; // down the first column, then across and back up
        WormholeNetwork fabric = WormholeNetwork.model(MESH, ModelSpec.parse("hold=20,end=55"), NodeModel.ONE_PORT);

        Schedule routed = twoRanks(new int[0], Instruction.ANY_PORT);
        Schedule explicit = twoRanks(detour, 0);
        assertEquals(List.of(), Verifier.verify(explicit));

        List<Integer> defaultPath = Simulator.event(routed, fabric, nodeOf).messages().get(0).path();
        List<Integer> followed = Simulator.event(explicit, fabric, nodeOf).messages().get(0).path();
        assertEquals(List.of(0, 3, 6, 7, 4), followed);
        assertNotEquals(defaultPath, followed);
        assertEquals(0, explicit.program(0).get(0).port());
        assertEquals(Instruction.ANY_PORT, routed.program(0).get(0).port());
    }

    @Test
    void malformedPathsAndPortsAreRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> Instruction.send(1, Block.WHOLE_ONLY, 1, new int[] {4}, Instruction.ANY_PORT));
        assertThrows(IllegalArgumentException.class,
                () -> Instruction.send(1, Block.WHOLE_ONLY, 1, new int[0], -2));
    }
}
