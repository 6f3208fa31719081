package io.mpirunj.collectives.builders;

import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import java.util.List;

/**
 * Barrier schedules of empty messages. An empty {@link Block.Range} still orders the program: round
 * k+1's token is the one received in round k (empty ranges at distinct offsets are distinct tokens).
 */
public final class BarrierBuilders {

    private BarrierBuilders() {
    }

    /**
     * Dissemination: ceil(log2 p) rounds; in round k rank r sends to r + 2^k and receives from
     * r - 2^k (mod p), and may start round k+1 only once round k's message has arrived. Reference:
     * Hensgen, Finkel, Manber, "Two algorithms for barrier synchronization", IJPP 17(1), 1988.
     */
    public static Schedule dissemination(int p) {
        Schedule.Builder b = Schedule.builder(Collective.BARRIER, "dissemination", p, -1, 0);
        for (int r = 0; r < p; r++) {
            Block token = Block.range(Block.Role.SEND, 0, 0);
            int k = 0;
            for (int d = 1; d < p; d <<= 1, k++) {
                Block received = Block.range(Block.Role.SCRATCH, k, 0);
                b.recv(r, (r - d + p) % p, k + 1, List.of(received));
                b.send(r, (r + d) % p, k + 1, List.of(token));
                token = received;
            }
        }
        return b.build();
    }
}
