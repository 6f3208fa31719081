import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import io.mpirunj.MpiException;
import io.mpirunj.Op;
import io.mpirunj.RankFailedException;

/**
 * The program of benchmarks/kill9-trials.sh: every rank prints {@code rank R pid P} once the job has met, then runs
 * collectives and point-to-point in a loop until a rank dies (bcast 4 KiB from a moving root, allreduce, alltoall
 * 256 B a pair, a ring sendrecv of 1 KiB, a barrier every 64 turns). A rank whose call fails prints
 * {@code rank R caught <exception> naming rank F after T turns: <message>} and rethrows.
 */
public class Kill9Loop {
    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        int me = world.rank();
        int n = world.size();
        world.barrier();
        System.out.println("rank " + me + " pid " + ProcessHandle.current().pid());
        System.out.flush();
        int[] block = new int[1024];
        long[] one = {me};
        long[] sum = new long[1];
        byte[] out = new byte[256 * n];
        byte[] in = new byte[256 * n];
        byte[] ringOut = new byte[1024];
        byte[] ringIn = new byte[1024];
        long turn = 0;
        try {
            for (;; turn++) {
                world.bcast(Buffer.of(block), (int) (turn % n));
                world.allreduce(Buffer.of(one), Buffer.of(sum), Op.SUM);
                world.alltoall(Buffer.of(out), Buffer.of(in));
                world.sendrecv(Buffer.of(ringOut), (me + 1) % n, 5, Buffer.of(ringIn), (me + n - 1) % n, 5);
                if (turn % 64 == 63) {
                    world.barrier();
                }
            }
        } catch (MpiException e) {
            String named = e instanceof RankFailedException f ? " naming rank " + f.failedRank() : "";
            System.out.println("rank " + me + " caught " + e.getClass().getSimpleName() + named + " after " + turn
                    + " turns: " + e.getMessage());
            System.out.flush();
            throw e;
        }
    }
}
