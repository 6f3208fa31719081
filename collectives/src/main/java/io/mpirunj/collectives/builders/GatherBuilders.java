package io.mpirunj.collectives.builders;

import static io.mpirunj.collectives.schedule.Block.Role.RECV;
import static io.mpirunj.collectives.schedule.Block.Role.SCRATCH;
import static io.mpirunj.collectives.schedule.Block.Role.SEND;

import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import java.util.List;

/**
 * Gather, scatter and allgather schedules over {@link Block.Range} blocks: each rank contributes (or
 * receives) {@code bytes}; block i of the root's (every rank's, for allgather) receive buffer, or of
 * the root's send buffer for scatter, is {@code [i * bytes, (i + 1) * bytes)}.
 */
public final class GatherBuilders {

    private GatherBuilders() {
    }

    private static List<Block> range(Block.Role role, long offset, long bytes) {
        return List.of(Block.range(role, offset, bytes));
    }

    /** Linear gather: the root posts a receive per rank into its block and copies its own. */
    public static Schedule linearGather(int p, int root, long bytes) {
        Schedule.Builder b = Schedule.builder(Collective.GATHER, "linear", p, root, bytes);
        b.copy(root, 0, Block.range(SEND, 0, bytes), Block.range(RECV, root * bytes, bytes));
        for (int r = 0; r < p; r++) {
            if (r != root) {
                b.recv(root, r, 1, range(RECV, r * bytes, bytes));
                b.send(r, root, 1, range(SEND, 0, bytes));
            }
        }
        return b.build();
    }

    /** Linear scatter: the root sends block i to rank i and copies its own. */
    public static Schedule linearScatter(int p, int root, long bytes) {
        Schedule.Builder b = Schedule.builder(Collective.SCATTER, "linear", p, root, bytes);
        b.copy(root, 0, Block.range(SEND, root * bytes, bytes), Block.range(RECV, 0, bytes));
        for (int r = 0; r < p; r++) {
            if (r != root) {
                b.send(root, r, 1, range(SEND, r * bytes, bytes));
                b.recv(r, root, 1, range(RECV, 0, bytes));
            }
        }
        return b.build();
    }

    /**
     * Ring allgather: p-1 steps; in step s rank r sends block (r - s) mod p to r+1 and receives
     * block (r - s - 1) mod p from r-1, forwarding next step what it just received. Reference: Open
     * MPI {@code ompi_coll_base_allgather_intra_ring}.
     */
    public static Schedule ringAllgather(int p, long bytes) {
        Schedule.Builder b = Schedule.builder(Collective.ALLGATHER, "ring", p, -1, bytes);
        for (int r = 0; r < p; r++) {
            b.copy(r, 0, Block.range(SEND, 0, bytes), Block.range(RECV, r * bytes, bytes));
        }
        for (int s = 0; s < p - 1; s++) {
            for (int r = 0; r < p; r++) {
                int out = Math.floorMod(r - s, p);
                int in = Math.floorMod(r - s - 1, p);
                if (bytes == 0) {
                    // Empty blocks would all be the same bytes: forward distinct empty tokens instead.
                    b.recv(r, (r - 1 + p) % p, s + 1, range(SCRATCH, s, 0));
                    b.send(r, (r + 1) % p, s + 1, s == 0 ? range(SEND, 0, 0) : range(SCRATCH, s - 1, 0));
                    continue;
                }
                b.recv(r, (r - 1 + p) % p, s + 1, range(RECV, in * bytes, bytes));
                b.send(r, (r + 1) % p, s + 1, range(RECV, out * bytes, bytes));
            }
        }
        return b.build();
    }
}
