package io.mpirunj.examples;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import io.mpirunj.Op;

/**
 * Broadcast, all-to-all and all-reduce, each checked against the values every rank can compute for
 * itself. Prints one OK line per rank; on a mismatch prints what differed and aborts the job with
 * exit status 1. Optional argument: elements per block (default 1000). Try forcing algorithms:
 * {@code mpirun-j -np 5 --coll bcast=binomial io.mpirunj.examples.CollectivesDemo}.
 */
public final class CollectivesDemo {
    private CollectivesDemo() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int rank = world.rank();
        int size = world.size();
        int root = size - 1;

        // bcast: root's data reaches every rank
        long[] data = new long[count];
        if (rank == root) {
            for (int i = 0; i < count; i++) {
                data[i] = 31L * i + 7;
            }
        }
        world.bcast(Buffer.of(data), root);
        for (int i = 0; i < count; i++) {
            if (data[i] != 31L * i + 7) {
                fail(world, "bcast", "element " + i + " = " + data[i] + ", expected " + (31L * i + 7));
            }
        }

        // alltoall: block j of rank i holds (i, j, k); rank j receives it as its block i
        int[] send = new int[size * count];
        int[] recv = new int[size * count];
        for (int j = 0; j < size; j++) {
            for (int k = 0; k < count; k++) {
                send[j * count + k] = cell(rank, j, k);
            }
        }
        world.alltoall(Buffer.of(send), Buffer.of(recv));
        for (int i = 0; i < size; i++) {
            for (int k = 0; k < count; k++) {
                int want = cell(i, rank, k);
                if (recv[i * count + k] != want) {
                    fail(world, "alltoall", "block " + i + " element " + k + " = " + recv[i * count + k]
                            + ", expected " + want);
                }
            }
        }

        // allreduce: sum over ranks of (rank + i), and the max rank
        long[] mine = new long[count];
        long[] sum = new long[count];
        for (int i = 0; i < count; i++) {
            mine[i] = rank + i;
        }
        world.allreduce(Buffer.of(mine), Buffer.of(sum), Op.SUM);
        for (int i = 0; i < count; i++) {
            long want = (long) size * (size - 1) / 2 + (long) size * i;
            if (sum[i] != want) {
                fail(world, "allreduce(SUM)", "element " + i + " = " + sum[i] + ", expected " + want);
            }
        }
        int[] max = new int[1];
        world.allreduce(Buffer.of(new int[] {rank}), Buffer.of(max), Op.MAX);
        if (max[0] != size - 1) {
            fail(world, "allreduce(MAX)", max[0] + ", expected " + (size - 1));
        }

        System.out.println("rank " + rank + " of " + size + ": OK (bcast, alltoall, allreduce; " + count
                + " elements per block)");
        Mpi.finish();
    }

    private static int cell(int from, int to, int k) {
        return from * 1_000_003 + to * 1_009 + k;
    }

    private static void fail(Comm world, String what, String detail) {
        System.err.println("rank " + world.rank() + ": " + what + " MISMATCH: " + detail);
        world.abort(1);
    }
}
