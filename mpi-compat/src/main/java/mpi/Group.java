package mpi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** An ordered set of processes (MPI_Group), held as their ranks in the world. */
public final class Group implements Freeable {
    /** World rank of each member, in group order. */
    final int[] worldRanks;

    Group(int[] worldRanks) {
        this.worldRanks = worldRanks;
    }

    public int getSize() {
        return worldRanks.length;
    }

    /** The calling process's rank in this group, or {@link MPI#UNDEFINED}. */
    public int getRank() {
        return indexOf(MPI.worldComm("Group.getRank").rank());
    }

    private int indexOf(int worldRank) {
        for (int i = 0; i < worldRanks.length; i++) {
            if (worldRanks[i] == worldRank) {
                return i;
            }
        }
        return MPI.UNDEFINED;
    }

    @Override
    public void free() {
    }

    public boolean isNull() {
        return false;
    }

    /** The ranks in {@code group2} of the processes with ranks {@code ranks1} in {@code group1}. */
    public static int[] translateRanks(Group group1, int[] ranks1, Group group2) {
        int[] out = new int[ranks1.length];
        for (int i = 0; i < ranks1.length; i++) {
            int r = ranks1[i];
            if (r == MPI.PROC_NULL) {
                out[i] = MPI.PROC_NULL;
                continue;
            }
            group1.checkRank("Group.translateRanks", r);
            out[i] = group2.indexOf(group1.worldRanks[r]);
        }
        return out;
    }

    /** {@link MPI#IDENT}, {@link MPI#SIMILAR} (same members, other order) or {@link MPI#UNEQUAL}. */
    public static int compare(Group group1, Group group2) {
        if (Arrays.equals(group1.worldRanks, group2.worldRanks)) {
            return MPI.IDENT;
        }
        int[] a = group1.worldRanks.clone();
        int[] b = group2.worldRanks.clone();
        Arrays.sort(a);
        Arrays.sort(b);
        return Arrays.equals(a, b) ? MPI.SIMILAR : MPI.UNEQUAL;
    }

    /** The members of {@code group1}, then those of {@code group2} not in {@code group1}. */
    public static Group union(Group group1, Group group2) {
        Set<Integer> s = new LinkedHashSet<>();
        for (int r : group1.worldRanks) {
            s.add(r);
        }
        for (int r : group2.worldRanks) {
            s.add(r);
        }
        return new Group(s.stream().mapToInt(Integer::intValue).toArray());
    }

    /** The members of {@code group1} that are also in {@code group2}, in {@code group1}'s order. */
    public static Group intersection(Group group1, Group group2) {
        return new Group(Arrays.stream(group1.worldRanks).filter(r -> group2.indexOf(r) != MPI.UNDEFINED).toArray());
    }

    /** The members of {@code group1} that are not in {@code group2}, in {@code group1}'s order. */
    public static Group difference(Group group1, Group group2) {
        return new Group(Arrays.stream(group1.worldRanks).filter(r -> group2.indexOf(r) == MPI.UNDEFINED).toArray());
    }

    /** The members with the listed ranks, in that order. */
    public Group incl(int[] ranks) {
        int[] out = new int[ranks.length];
        boolean[] seen = new boolean[worldRanks.length];
        for (int i = 0; i < ranks.length; i++) {
            checkRank("Group.incl", ranks[i]);
            if (seen[ranks[i]]) {
                throw new MPIException("Group.incl: rank " + ranks[i] + " listed twice", null, MPI.ERR_RANK);
            }
            seen[ranks[i]] = true;
            out[i] = worldRanks[ranks[i]];
        }
        return new Group(out);
    }

    /** The members without the listed ranks, in group order. */
    public Group excl(int[] ranks) {
        boolean[] drop = new boolean[worldRanks.length];
        for (int r : ranks) {
            checkRank("Group.excl", r);
            drop[r] = true;
        }
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < worldRanks.length; i++) {
            if (!drop[i]) {
                out.add(worldRanks[i]);
            }
        }
        return new Group(out.stream().mapToInt(Integer::intValue).toArray());
    }

    /** The members of the ranges {first, last, stride}, in range order. */
    public Group rangeIncl(int[][] ranges) {
        return incl(expand("Group.rangeIncl", ranges));
    }

    /** The members outside the ranges {first, last, stride}. */
    public Group rangeExcl(int[][] ranges) {
        return excl(expand("Group.rangeExcl", ranges));
    }

    private int[] expand(String call, int[][] ranges) {
        List<Integer> out = new ArrayList<>();
        for (int[] t : ranges) {
            if (t.length != 3 || t[2] == 0) {
                throw new MPIException(call + ": a range is {first, last, stride} with stride != 0, got "
                        + Arrays.toString(t), null, MPI.ERR_ARG);
            }
            for (int r = t[0]; t[2] > 0 ? r <= t[1] : r >= t[1]; r += t[2]) {
                out.add(r);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private void checkRank(String call, int r) {
        if (r < 0 || r >= worldRanks.length) {
            throw new MPIException(call + ": rank " + r + " is outside a group of " + worldRanks.length, null,
                    MPI.ERR_RANK);
        }
    }

    @Override
    public String toString() {
        return "Group" + Arrays.toString(worldRanks);
    }
}
