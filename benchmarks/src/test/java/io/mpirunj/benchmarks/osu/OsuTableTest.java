package io.mpirunj.benchmarks.osu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The exact strings of OSU's layout (OSU Micro-Benchmarks 7.x, osu_util.c and osu_util_mpi.c). */
class OsuTableTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "LATENCY   | # OSU MPI Latency Test v7.4",
        "BW        | # OSU MPI Bandwidth Test v7.4",
        "BCAST     | # OSU MPI Broadcast Latency Test v7.4",
        "ALLTOALL  | # OSU MPI All-to-All Personalized Exchange Latency Test v7.4",
        "BARRIER   | # OSU MPI Barrier Latency Test v7.4",
        "ALLREDUCE | # OSU MPI Allreduce Latency Test v7.4"})
    void titlesAreOsus(OsuBenchmark benchmark, String title) {
        assertEquals(title, OsuTable.title(benchmark));
    }

    @Test
    void datatypeLinesAreOsus() {
        assertEquals("# Datatype: MPI_CHAR.", OsuTable.datatypeLine(OsuBenchmark.BCAST));
        assertEquals("# Datatype: MPI_FLOAT.", OsuTable.datatypeLine(OsuBenchmark.ALLREDUCE));
    }

    @Test
    void columnHeadersAreOsus() {
        assertEquals("# Size          Latency (us)", OsuTable.columnHeader(OsuBenchmark.LATENCY, false));
        assertEquals("# Size      Bandwidth (MB/s)", OsuTable.columnHeader(OsuBenchmark.BW, false));
        assertEquals("# Size      Bandwidth (MB/s)", OsuTable.columnHeader(OsuBenchmark.BW, true));
        assertEquals("# Size       Avg Latency(us)", OsuTable.columnHeader(OsuBenchmark.BCAST, false));
        assertEquals("# Avg Latency(us)", OsuTable.columnHeader(OsuBenchmark.BARRIER, false));
        // -f: OSU's full columns exactly, then ours
        assertEquals("# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations"
                + "   P50 Latency(us)   P99 Latency(us)  Last-Rank Done(us)",
                OsuTable.columnHeader(OsuBenchmark.BCAST, true));
        assertEquals("# Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations"
                + "   P50 Latency(us)   P99 Latency(us)  Last-Rank Done(us)",
                OsuTable.columnHeader(OsuBenchmark.BARRIER, true));
        assertEquals("# Size          Latency (us)   Min Latency(us)   Max Latency(us)  Iterations"
                + "   P50 Latency(us)   P99 Latency(us)", OsuTable.columnHeader(OsuBenchmark.LATENCY, true));
    }

    @Test
    void rowsUseOsusWidths() {
        // as OSU 7.x prints "1                      86.56             21.32            126.27        1000"
        OsuTable.Row r = new OsuTable.Row(1, 86.56, 21.32, 126.27, 1000, 80.5, 120.25, 130.0);
        assertEquals("1                      86.56", OsuTable.row(OsuBenchmark.BCAST, false, r));
        assertEquals("1                      86.56             21.32            126.27        1000"
                + "             80.50            120.25              130.00", OsuTable.row(OsuBenchmark.BCAST, true, r));
        assertEquals("            86.56", OsuTable.row(OsuBenchmark.BARRIER, false, r));
        assertEquals("1048576                86.56", OsuTable.row(OsuBenchmark.LATENCY, false,
                OsuTable.Row.of(1048576, 86.56)));
    }

    @Test
    void headerBlockHasOsusLinesAndOursAsAComment() {
        List<String> h = OsuTable.header(OsuBenchmark.BCAST, false, "np 8");
        assertEquals(List.of("", "# OSU MPI Broadcast Latency Test v7.4", "# mpirun-j: np 8", "# Datatype: MPI_CHAR.",
                "# Size       Avg Latency(us)"), h);
        // point-to-point tests have no blank preamble line, as OSU's print_header
        assertEquals("# OSU MPI Latency Test v7.4", OsuTable.header(OsuBenchmark.LATENCY, false, null).get(0));
        // osu_barrier: no datatype line, no size column
        assertEquals(List.of("", "# OSU MPI Barrier Latency Test v7.4", "# Avg Latency(us)"),
                OsuTable.header(OsuBenchmark.BARRIER, false, null));
    }

    @Test
    void parsesOursAndOsusOutput() {
        String osu = """

                # OSU MPI Broadcast Latency Test v7.0
                # Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations
                1                      86.56             21.32            126.27        1000
                2                      87.98             21.39            128.87        1000
                """;
        List<OsuTable.Row> rows = OsuTable.parse(OsuBenchmark.BCAST, osu);
        assertEquals(2, rows.size());
        assertEquals(2, rows.get(1).size());
        assertEquals(87.98, rows.get(1).value());
        assertEquals(128.87, rows.get(1).maxUs());
        assertEquals(1000, rows.get(1).iterations());
        assertTrue(Double.isNaN(rows.get(1).p50Us()));
        OsuTable.Row ours = new OsuTable.Row(4096, 5.5, 1, 9, 10, 5, 8.5, 7.25);
        assertEquals(List.of(ours), OsuTable.parse(OsuBenchmark.BCAST, OsuTable.row(OsuBenchmark.BCAST, true, ours)));
        OsuTable.Row barrier = OsuTable.parse(OsuBenchmark.BARRIER, "# Avg Latency(us)\n             3.25\n").get(0);
        assertEquals(-1, barrier.size());
        assertEquals(3.25, barrier.value());
    }

    @Test
    void percentilesAreNearestRank() {
        double[] v = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertEquals(5, Percentiles.of(v, 50));
        assertEquals(10, Percentiles.of(v, 99));
        assertEquals(1, Percentiles.of(new double[] {1}, 99));
        assertTrue(Double.isNaN(Percentiles.of(new double[0], 50)));
    }
}
