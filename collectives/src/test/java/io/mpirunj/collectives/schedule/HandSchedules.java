package io.mpirunj.collectives.schedule;

import java.util.List;

/** Hand-made schedules shared by the verifier and simulator tests. */
public final class HandSchedules {

    private HandSchedules() {
    }

    /**
     * Segments A = [0,5) and B = [5,10) over ranks 0..3. Rank 1 forwards B (which it gets from 2)
     * before A to 2; rank 2 forwards A (which it gets from 1) before B to 1. Every send follows
     * the receive of its data and every message is matched, yet sends leave in program order, so
     * each waits for the other: a deadlock. With {@code rankOneSendsAFirst} rank 1's two sends
     * are swapped, which breaks the cycle and makes the schedule valid.
     */
    public static Schedule crossedForwarding(boolean rankOneSendsAFirst) {
        List<Block> a = List.of(new Block.Segment(0, 5));
        List<Block> b = List.of(new Block.Segment(5, 5));
        Schedule.Builder s = Schedule.builder(Collective.MULTICAST, "hand", 4, 0, 10)
                .units(List.of(a.get(0), b.get(0)))
                .send(0, 1, 1, a).send(0, 2, 1, b)
                .recv(1, 0, 1, a).recv(1, 2, 2, b);
        if (rankOneSendsAFirst) {
            s.send(1, 2, 2, a).send(1, 3, 3, b);
        } else {
            s.send(1, 3, 3, b).send(1, 2, 2, a);
        }
        return s.recv(2, 0, 1, b).recv(2, 1, 2, a).send(2, 3, 3, a).send(2, 1, 2, b)
                .recv(3, 1, 3, b).recv(3, 2, 3, a)
                .build();
    }
}
