package io.mpirunj.collectives.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import org.junit.jupiter.api.Test;

class SimulationJsonTest {

    @Test
    void writesTheScheduleAndItsSimulation() {
        CostModel model = ModelSpec.parse("hold=10,end=40");
        Schedule s = Schedule.builder(Collective.BCAST, "hand", 3, 1, 64)
                .send(1, 2, 1).send(1, 0, 2).recv(2, 1, 1).recv(0, 1, 2).build();
        assertEquals("{\"op\":\"bcast\",\"algorithm\":\"hand\",\"ranks\":3,\"root\":1,\"bytes\":64,"
                + "\"model\":\"hold=10,end=40\",\"evaluation\":\"event\",\"completion\":50,\"messages\":["
                + "{\"src\":1,\"dst\":2,\"start\":0,\"end\":40,\"step\":1},"
                + "{\"src\":1,\"dst\":0,\"start\":10,\"end\":50,\"step\":2}]}",
                SimulationJson.write(Simulator.event(s, model)));
    }

    @Test
    void fractionalTimesNotesAndDroppedCopiesAreWritten() {
        CostModel model = ModelSpec.parse("hold=2.5,end=7.25");
        Schedule s = Schedule.builder(Collective.MULTICAST, "t\"t", 3, 0, 0).note("fallback: 1 segment")
                .send(0, 2, 1).send(0, 1, 2).recv(1, 0, 2).send(1, 2, 3)
                .recvFirstOf(2, new int[] {0, 1}, 1, Block.WHOLE_ONLY).build();
        assertEquals("{\"op\":\"multicast\",\"algorithm\":\"t\\\"t\",\"ranks\":3,\"root\":0,\"bytes\":0,"
                + "\"model\":\"hold=2.5,end=7.25\",\"evaluation\":\"rounds\",\"completion\":14.5,"
                + "\"note\":\"fallback: 1 segment\",\"messages\":["
                + "{\"src\":0,\"dst\":2,\"start\":0,\"end\":7.25,\"step\":1},"
                + "{\"src\":0,\"dst\":1,\"start\":7.25,\"end\":14.5,\"step\":2},"
                + "{\"src\":1,\"dst\":2,\"start\":14.5,\"end\":21.75,\"step\":3,\"dropped\":true}]}",
                SimulationJson.write(Simulator.rounds(s, model)));
    }
}
