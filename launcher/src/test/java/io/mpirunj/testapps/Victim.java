package io.mpirunj.testapps;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import io.mpirunj.MpiException;
import io.mpirunj.RankFailedException;

/**
 * {@code Victim OP VICTIM MODE}: every rank prints {@code rank R pid P}; after a barrier the rank
 * VICTIM prints {@code victim ready} and then sleeps forever (MODE {@code sleep}: a test kills it)
 * or throws after a moment (MODE {@code throw}), while every other rank prints {@code rank R enters OP}
 * and blocks in OP, which depends
 * on the victim: {@code bcast} (rooted at the victim), {@code alltoall}, or {@code recv-any} (a
 * receive from ANY_SOURCE). A rank whose OP fails prints {@code rank R caught <exception> naming
 * rank F: <message>} and rethrows.
 */
public final class Victim {
    private Victim() {
    }

    public static void main(String[] args) throws Exception {
        Comm world = Mpi.init(args);
        String op = args[0];
        int victim = Integer.parseInt(args[1]);
        String mode = args[2];
        int me = world.rank();
        System.out.println("rank " + me + " pid " + ProcessHandle.current().pid());
        world.barrier();
        if (me == victim) {
            System.out.println("victim ready");
            if (mode.equals("throw")) {
                Thread.sleep(500);
                throw new IllegalStateException("victim rank " + me + " fails on purpose");
            }
            Thread.sleep(Long.MAX_VALUE);
        }
        System.out.println("rank " + me + " enters " + op);
        System.out.flush();
        try {
            switch (op) {
                case "bcast":
                    world.bcast(Buffer.of(new int[4096]), victim);
                    break;
                case "alltoall":
                    world.alltoall(Buffer.of(new int[world.size() * 512]), Buffer.of(new int[world.size() * 512]));
                    break;
                case "recv-any":
                    world.recv(Buffer.of(new int[1]), Comm.ANY_SOURCE, 7);
                    break;
                default:
                    throw new IllegalArgumentException("op=" + op);
            }
        } catch (MpiException e) {
            reportCaught(me, e);
            throw e;
        }
        System.out.println("rank " + me + " completed " + op + " without the victim");
        Mpi.finish();
    }

    /** The line the failure tests wait for: {@code rank R caught <exception> [naming rank F]: <message>}. */
    static void reportCaught(int me, MpiException e) {
        String named = e instanceof RankFailedException ? " naming rank " + ((RankFailedException) e).failedRank() : "";
        System.out.println("rank " + me + " caught " + e.getClass().getSimpleName() + named + ": " + e.getMessage());
        System.out.flush();
    }
}
