package io.mpirunj.collectives.builders;

import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.Collective;
import io.mpirunj.collectives.schedule.Schedule;
import java.util.ArrayList;
import java.util.List;

/**
 * All-to-all schedules of {@link Block.Pair} blocks: rank r starts with (r, d) in block d of its send
 * buffer and ends with (o, r) in block o of its receive buffer. Every schedule copies the rank's own
 * block (r, r) locally first (a COPY of the pair reads the send buffer and writes the receive buffer).
 * {@code blockBytes} is the size of one block; {@code pairBytes} (alltoallv) gives each block its own.
 */
public final class AlltoallBuilders {

    private AlltoallBuilders() {
    }

    private static Schedule.Builder start(String name, int p, long blockBytes, long[][] pairBytes) {
        Schedule.Builder b = Schedule.builder(Collective.ALLTOALL, name, p, -1, blockBytes);
        if (pairBytes != null) {
            b.pairBytes(pairBytes);
        }
        return b.copyOwnPairBlocks();
    }

    /**
     * Pairwise exchange: in step {@code s = 1 .. p-1} rank r sends (r, r+s) to r+s and receives
     * (r-s, r) from r-s (mod p). One message each way per step. Reference: Open MPI
     * {@code ompi_coll_base_alltoall_intra_pairwise}.
     */
    public static Schedule pairwise(int p, long blockBytes, long[][] pairBytes) {
        Schedule.Builder b = start("pairwise", p, blockBytes, pairBytes);
        for (int s = 1; s < p; s++) {
            for (int r = 0; r < p; r++) {
                int to = (r + s) % p;
                int from = (r - s + p) % p;
                b.recv(r, from, s, List.of(new Block.Pair(from, r)));
                b.send(r, to, s, List.of(new Block.Pair(r, to)));
            }
        }
        return b.build();
    }

    /**
     * Linear: every rank posts all p-1 receives, then sends to r+1, r+2, ... (mod p), so the
     * network sees every message at once. Reference: Open MPI {@code ompi_coll_base_alltoall_intra_basic_linear}.
     */
    public static Schedule linear(int p, long blockBytes, long[][] pairBytes) {
        Schedule.Builder b = start("linear", p, blockBytes, pairBytes);
        for (int r = 0; r < p; r++) {
            for (int s = 1; s < p; s++) {
                int from = (r - s + p) % p;
                b.recv(r, from, 1, List.of(new Block.Pair(from, r)));
            }
            for (int s = 1; s < p; s++) {
                int to = (r + s) % p;
                b.send(r, to, 1, List.of(new Block.Pair(r, to)));
            }
        }
        return b.build();
    }

    /**
     * Bruck: ceil(log2 p) rounds; in round k every rank sends to r + 2^k, in one combined message,
     * every block it holds whose remaining distance to its destination has bit k set. Blocks travel
     * through intermediate ranks (stored in their scratch memory) and arrive after at most
     * log2 p hops: few large messages instead of p-1 small ones, for small blocks. Reference:
     * J. Bruck et al., "Efficient algorithms for all-to-all communications in multiport
     * message-passing systems", IEEE TPDS 8(11), 1997.
     */
    public static Schedule bruck(int p, long blockBytes, long[][] pairBytes) {
        Schedule.Builder b = start("bruck", p, blockBytes, pairBytes);
        int rounds = 0;
        while ((1 << rounds) < p) {
            rounds++;
        }
        for (int k = 0; k < rounds; k++) {
            int distance = 1 << k;
            List<List<Block>> carried = new ArrayList<>(p);
            for (int h = 0; h < p; h++) {
                carried.add(new ArrayList<>());
            }
            for (int o = 0; o < p; o++) {
                for (int d = 0; d < p; d++) {
                    int offset = Math.floorMod(d - o, p);
                    if ((offset & distance) == 0) {
                        continue;
                    }
                    int holder = (o + (offset & (distance - 1))) % p;
                    carried.get(holder).add(new Block.Pair(o, d));
                }
            }
            for (int h = 0; h < p; h++) {
                List<Block> blocks = carried.get(h);
                if (blocks.isEmpty()) {
                    continue;
                }
                int to = (h + distance) % p;
                b.send(h, to, k + 1, blocks);
                b.recv(to, h, k + 1, blocks);
            }
        }
        return b.build();
    }
}
