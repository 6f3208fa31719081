package io.mpirunj.benchmarks.osu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.testing.LocalCluster;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Runs OSU programs on ranks as threads and checks their output's layout. */
public final class OsuOutputChecks {
    private OsuOutputChecks() {
    }

    /** Runs {@code b} with {@code args} on {@code np} ranks (threads), forcing {@code coll} if not null; rank 0's output. */
    public static String run(OsuBenchmark b, int np, String coll, String... args) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        RuntimeConfig config = RuntimeConfig.defaults();
        if (coll != null) {
            config = config.withForcedCollectives(coll);
        }
        LocalCluster.run(np, config, Duration.ofSeconds(60), world -> OsuSuite.run(b, world, args, out));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** Column widths of a data row: size 10, values 18, iterations 12, last-rank 20 (barrier: first value 17). */
    public static int[] widths(OsuBenchmark b, boolean full) {
        List<Integer> w = new ArrayList<>();
        if (b.hasSizes()) {
            w.add(10);
            w.add(18);
        } else {
            w.add(17);
        }
        if (full && b.kind() != OsuBenchmark.Kind.BANDWIDTH) {
            w.addAll(List.of(18, 18, 12, 18, 18));
            if (b.kind() != OsuBenchmark.Kind.LATENCY) {
                w.add(20);
            }
        }
        return w.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * Checks that {@code line} is exactly the fixed-width columns {@code widths}: the size column
     * left-aligned digits, the others right-aligned numbers (2 decimals; iterations whole), each
     * value positive and finite. Returns the values.
     */
    public static double[] assertRow(OsuBenchmark b, String line, int[] widths) {
        int total = 0;
        for (int w : widths) {
            total += w;
        }
        assertEquals(total, line.length(), "row width: '" + line + "'");
        double[] values = new double[widths.length];
        int at = 0;
        for (int c = 0; c < widths.length; c++) {
            String cell = line.substring(at, at + widths[c]);
            boolean sizeColumn = b.hasSizes() && c == 0;
            boolean itersColumn = widths[c] == 12;
            String pattern = sizeColumn ? "\\d+ *" : itersColumn ? " *\\d+" : " *\\d+\\.\\d\\d";
            assertTrue(cell.matches(pattern), "column " + c + " '" + cell + "' of '" + line + "' does not match "
                    + pattern);
            values[c] = Double.parseDouble(cell.trim());
            if (!sizeColumn) {
                // a bandwidth of 1-byte messages rounds to 0.00 MB/s when the machine pauses a run of few iterations
                boolean roundsToZero = b.kind() == OsuBenchmark.Kind.BANDWIDTH;
                assertTrue((roundsToZero ? values[c] >= 0 : values[c] > 0) && Double.isFinite(values[c]),
                        "column " + c + " of '" + line + "' is not positive");
            }
            at += widths[c];
        }
        return values;
    }

    /** The lines that are rows (not blank, not comments). */
    public static List<String> rows(String output) {
        List<String> rows = new ArrayList<>();
        for (String l : output.split("\\R")) {
            if (!l.isEmpty() && !l.startsWith("#")) {
                rows.add(l);
            }
        }
        return rows;
    }
}
