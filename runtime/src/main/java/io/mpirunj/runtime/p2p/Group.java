package io.mpirunj.runtime.p2p;

import java.util.Arrays;

/** The ranks of a communicator as world ranks, and back. Immutable. */
public final class Group {
    private final int[] worldRanks;
    /** Communicator rank of each world rank, -1 if not a member. */
    private final int[] rankOfWorld;

    public Group(int[] worldRanks, int worldSize) {
        this.worldRanks = worldRanks.clone();
        this.rankOfWorld = new int[worldSize];
        Arrays.fill(rankOfWorld, -1);
        for (int i = 0; i < worldRanks.length; i++) {
            int w = worldRanks[i];
            if (w < 0 || w >= worldSize || rankOfWorld[w] != -1) {
                throw new IllegalArgumentException("bad group member world rank " + w + " in " + Arrays.toString(worldRanks));
            }
            rankOfWorld[w] = i;
        }
    }

    public static Group world(int size) {
        int[] all = new int[size];
        for (int i = 0; i < size; i++) {
            all[i] = i;
        }
        return new Group(all, size);
    }

    public int size() {
        return worldRanks.length;
    }

    public int worldRank(int rank) {
        return worldRanks[rank];
    }

    /** Communicator rank of {@code worldRank}, or -1 if it is not a member. */
    public int rankOf(int worldRank) {
        return worldRank >= 0 && worldRank < rankOfWorld.length ? rankOfWorld[worldRank] : -1;
    }

    public boolean contains(int worldRank) {
        return rankOf(worldRank) >= 0;
    }
}
