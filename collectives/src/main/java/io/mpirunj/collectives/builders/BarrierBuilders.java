package io.mpirunj.collectives.builders;

import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import java.util.ArrayList;
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

    /**
     * Linear (fan-in, fan-out): every other rank sends an empty message to rank 0 and waits for
     * rank 0's reply; rank 0 receives from every rank, then replies to each in rank order. Rank 0
     * leaves first, so a collective rooted there that follows (OSU's loops: bcast from 0, then a
     * barrier) finds its root already running when the others arrive. Each reply carries every token
     * rank 0 received, so no reply leaves before the last arrival. Reference: Open MPI
     * {@code ompi_coll_base_barrier_intra_basic_linear}.
     */
    public static Schedule linear(int p) {
        Schedule.Builder b = Schedule.builder(Collective.BARRIER, "linear", p, -1, 0);
        List<Block> arrivals = new ArrayList<>();
        for (int q = 1; q < p; q++) {
            Block arrival = Block.range(Block.Role.SCRATCH, q - 1, 0);
            arrivals.add(arrival);
            b.recv(0, q, 1, List.of(arrival));
        }
        Block token = Block.range(Block.Role.SEND, 0, 0);
        for (int q = 1; q < p; q++) {
            b.send(q, 0, 1, List.of(token));
            b.send(0, q, 2, arrivals);
            b.recv(q, 0, 2, arrivals);
        }
        return b.build();
    }
}
