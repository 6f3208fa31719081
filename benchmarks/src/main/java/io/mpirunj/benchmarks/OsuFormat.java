package io.mpirunj.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Column layout and helpers shared by the OSU-style benchmarks (as in the OSU Micro-Benchmarks); the
 * small/large message threshold is {@link io.mpirunj.benchmarks.osu.OsuBenchmark#LARGE_MESSAGE_BYTES}.
 */
public final class OsuFormat {
    private OsuFormat() {
    }

    /** Powers of two from {@code min} (0 allowed, then 1) to {@code max}. */
    public static List<Integer> sizes(int min, int max) {
        List<Integer> out = new ArrayList<>();
        if (min == 0) {
            out.add(0);
            min = 1;
        }
        for (long s = min; s <= max; s *= 2) {
            out.add((int) s);
        }
        return out;
    }

    /** One data row: size left-aligned in 10 columns, then each value in 18 columns with 2 decimals. */
    public static String row(int size, double... values) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-10d", size));
        for (double v : values) {
            sb.append(String.format(Locale.ROOT, "%18.2f", v));
        }
        return sb.toString();
    }

    /** Median of the first {@code n} values (sorts them in place). */
    public static double median(long[] values, int n) {
        Arrays.sort(values, 0, n);
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
    }

    /** A line describing the machine, for printing beside results. */
    public static String conditions() {
        return "java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + "), "
                + Runtime.getRuntime().availableProcessors() + " cores, " + System.getProperty("os.name") + " "
                + System.getProperty("os.arch");
    }
}
