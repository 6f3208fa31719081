package io.mpirunj.mpicompat.programs;

import mpi.Comm;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/** Communicator split, dup, create from a group, and group arithmetic. */
public class Split {
    /** The program between Init and Finalize ({@link AllPrograms}). */
    public static void run(Intracomm world, String[] args) throws MPIException {
        int me = world.getRank();
        int size = world.getSize();

        // by parity, ordered by descending world rank
        Intracomm half = world.split(me % 2, -me);
        int members = (size + 1 - me % 2) / 2;
        Expect.equal("split size", members, half.getSize());
        int above = 0;
        for (int r = me + 2; r < size; r += 2) {
            above++;
        }
        Expect.equal("split rank", above, half.getRank());
        int[] sum = new int[1];
        half.allReduce(new int[] {me}, sum, 1, MPI.INT, MPI.SUM);
        int expected = 0;
        for (int r = me % 2; r < size; r += 2) {
            expected += r;
        }
        Expect.equal("allReduce within the split", expected, sum[0]);
        int[] fromTop = {me};
        half.bcast(fromTop, 1, MPI.INT, 0);
        Expect.equal("bcast from the split's rank 0", size - 1 - ((size - 1 - me) % 2), fromTop[0]);

        // UNDEFINED leaves a rank out
        Intracomm some = world.split(me == 0 ? MPI.UNDEFINED : 1, me);
        Expect.equal("UNDEFINED gives a null communicator", me == 0 ? 1 : 0, some.isNull() ? 1 : 0);
        if (!some.isNull()) {
            Expect.equal("split without rank 0", size - 1, some.getSize());
            some.free();
            Expect.isTrue("freed", some.isNull());
        }

        // dup is congruent, and its traffic is its own
        Intracomm copy = world.dup();
        Expect.equal("compare(world, dup)", MPI.CONGRUENT, Comm.compare(world, copy));
        Expect.equal("compare(world, world)", MPI.IDENT, Comm.compare(world, world));
        int right = Neighbours.right(world);
        int left = Neighbours.left(world);
        world.iSend(new int[] {1}, 1, MPI.INT, right, 9);
        copy.send(new int[] {2}, 1, MPI.INT, right, 9);
        int[] v = new int[1];
        copy.recv(v, 1, MPI.INT, left, 9);
        Expect.equal("the dup's message", 2, v[0]);
        world.recv(v, 1, MPI.INT, left, 9);
        Expect.equal("the world's message", 1, v[0]);

        // a communicator of the even ranks, from a group
        Group all = world.getGroup();
        Expect.equal("group size", size, all.getSize());
        Expect.equal("group rank", me, all.getRank());
        int[] evens = new int[(size + 1) / 2];
        for (int i = 0; i < evens.length; i++) {
            evens[i] = 2 * i;
        }
        Group even = all.incl(evens);
        Group odd = Group.difference(all, even);
        Expect.equal("difference", size / 2, odd.getSize());
        Expect.equal("union", size, Group.union(even, odd).getSize());
        Expect.equal("intersection", 0, Group.intersection(even, odd).getSize());
        int[] t = Group.translateRanks(all, new int[] {0, size - 1}, even);
        Expect.equal("translate 0", 0, t[0]);
        Expect.equal("translate last", (size - 1) % 2 == 0 ? (size - 1) / 2 : MPI.UNDEFINED, t[1]);
        Intracomm evenComm = world.create(even);
        Expect.equal("create: null off the group", me % 2, evenComm.isNull() ? 1 : 0);
        if (!evenComm.isNull()) {
            Expect.equal("create rank", me / 2, evenComm.getRank());
            int[] gathered = new int[evenComm.getSize()];
            evenComm.allGather(new int[] {me}, 1, MPI.INT, gathered, 1, MPI.INT);
            for (int i = 0; i < gathered.length; i++) {
                Expect.equal("allGather on the created communicator[" + i + "]", 2 * i, gathered[i]);
            }
            evenComm.free();
        }
        Expect.equal("COMM_SELF size", 1, MPI.COMM_SELF.getSize());
        Expect.equal("COMM_SELF rank", 0, MPI.COMM_SELF.getRank());
        half.free();
        copy.free();
    }
}
