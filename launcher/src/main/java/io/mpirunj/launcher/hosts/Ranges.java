package io.mpirunj.launcher.hosts;

import java.util.List;

/** Rank lists written compactly: {@code 0-3, 8, 10-11}. */
public final class Ranges {
    private Ranges() {
    }

    /** {@code ranks} ascending, as runs. */
    public static String of(List<Integer> ranks) {
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (i < ranks.size()) {
            int j = i;
            while (j + 1 < ranks.size() && ranks.get(j + 1) == ranks.get(j) + 1) {
                j++;
            }
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(ranks.get(i));
            if (j > i) {
                sb.append('-').append(ranks.get(j));
            }
            i = j + 1;
        }
        return sb.toString();
    }
}
