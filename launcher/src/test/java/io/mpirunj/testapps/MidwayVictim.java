package io.mpirunj.testapps;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import io.mpirunj.MpiException;
import io.mpirunj.Op;
import io.mpirunj.Request;
import io.mpirunj.runtime.RankContext;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveOp;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import io.mpirunj.testing.GatedChannel;

/**
 * {@code MidwayVictim OP blocking|non-blocking VICTIM K}: every rank prints {@code rank R pid P} and
 * runs OP ({@code allreduce} or {@code alltoall}, the job's algorithm for it, through its collective
 * channel as {@code Comm} does). The rank VICTIM makes its first K sends and receives, holds back
 * every later one, prints {@code victim midway} and waits to be killed; every other rank prints
 * {@code rank R enters OP} first. A rank whose OP fails prints {@code rank R caught <exception>
 * naming rank F: <message>}; one that finishes prints {@code rank R completed OP}.
 */
public final class MidwayVictim {
    private MidwayVictim() {
    }

    public static void main(String[] args) throws Exception {
        Comm world = Mpi.init(args);
        String op = args[0];
        boolean nonBlocking = args[1].equals("non-blocking");
        int victim = Integer.parseInt(args[2]);
        int keep = Integer.parseInt(args[3]);
        int me = world.rank();
        int p = world.size();
        System.out.println("rank " + me + " pid " + ProcessHandle.current().pid());
        world.barrier();
        CollChannel ch = me == victim ? holdingBack(CollChannel.of(world), keep) : CollChannel.of(world);
        if (me != victim) {
            System.out.println("rank " + me + " enters " + op);
            System.out.flush();
        }
        CollectiveRegistry registry = RankContext.current().registry();
        try {
            Request request = null;
            switch (op) {
                case "allreduce": {
                    CollectiveAlgorithm.Allreduce a = registry.select(CollectiveOp.ALLREDUCE, CollectiveAlgorithm.Allreduce.class);
                    Buffer send = Buffer.of(new long[4096]);
                    Buffer recv = Buffer.of(new long[4096]);
                    request = a.allreduce(ch, send, recv, Op.SUM, !nonBlocking);
                    break;
                }
                case "alltoall": {
                    CollectiveAlgorithm.Alltoall a = registry.select(CollectiveOp.ALLTOALL, CollectiveAlgorithm.Alltoall.class);
                    Buffer send = Buffer.of(new int[p * 512]);
                    Buffer recv = Buffer.of(new int[p * 512]);
                    request = a.alltoall(ch, send, recv, !nonBlocking);
                    break;
                }
                default:
                    throw new IllegalArgumentException("op=" + op);
            }
            if (me == victim) {
                Thread.currentThread().join(); // non-blocking: its request holds back the rest until kill -9
            }
            if (request != null) {
                request.await();
            }
        } catch (MpiException e) {
            Victim.reportCaught(me, e);
            throw e;
        }
        System.out.println("rank " + me + " completed " + op);
        System.out.flush();
        Mpi.finish();
    }

    /** {@code inner} passing its first {@code keep} sends and receives on, holding every later one back for ever. */
    private static CollChannel holdingBack(CollChannel inner, int keep) {
        return new GatedChannel(inner) {
            @Override
            protected boolean proceed(int index) {
                if (index == keep) {
                    System.out.println("victim midway");
                    System.out.flush();
                }
                return index < keep;
            }
        };
    }
}
