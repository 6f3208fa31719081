package io.mpirunj.testapps;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import io.mpirunj.MpiException;
import io.mpirunj.RankFailedException;
import io.mpirunj.Request;

/**
 * {@code Victim OP VICTIM MODE}: every rank prints {@code rank R pid P}; after a barrier the rank
 * VICTIM prints {@code victim ready}, while every other rank prints {@code rank R enters OP} and blocks
 * in OP, which depends on the victim: {@code bcast} (rooted at the victim), {@code alltoall}, or
 * {@code recv-any} (a receive from ANY_SOURCE). With MODE {@code sleep} the victim then blocks for ever
 * (a test kills it) and the others call OP's blocking form. With MODE {@code throw} every other rank
 * starts OP's non-blocking form, tells the victim so (a message with tag {@value #POSTED_TAG}) and waits
 * for it; the victim throws once every other rank has told it, so each one's OP is pending when the
 * victim dies (a blocking call made after the job had failed would fail as aborted instead), however
 * slow the machine. A rank whose OP fails prints {@code rank R caught <exception> naming rank F:
 * <message>} and rethrows.
 */
public final class Victim {
    /** The tag of the "my OP is pending" messages to the victim (MODE throw). */
    static final int POSTED_TAG = 11;

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
                for (int i = 1; i < world.size(); i++) {
                    world.recv(Buffer.of(new int[1]), Comm.ANY_SOURCE, POSTED_TAG);
                }
                throw new IllegalStateException("victim rank " + me + " fails on purpose");
            }
            Thread.currentThread().join(); // until killed
        }
        System.out.println("rank " + me + " enters " + op);
        System.out.flush();
        try {
            if (mode.equals("throw")) {
                Request pending = switch (op) {
                    case "bcast" -> world.ibcast(Buffer.of(new int[4096]), victim);
                    case "alltoall" -> world.ialltoall(Buffer.of(new int[world.size() * 512]),
                            Buffer.of(new int[world.size() * 512]));
                    case "recv-any" -> world.irecv(Buffer.of(new int[1]), Comm.ANY_SOURCE, 7);
                    default -> throw new IllegalArgumentException("op=" + op);
                };
                world.send(Buffer.of(new int[] {me}), victim, POSTED_TAG);
                pending.await();
                System.out.println("rank " + me + " completed " + op + " without the victim");
                Mpi.finish();
                return;
            }
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
