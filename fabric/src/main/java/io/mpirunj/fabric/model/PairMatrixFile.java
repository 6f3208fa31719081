package io.mpirunj.fabric.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.mpirunj.io.IoErrors;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The per-pair cost matrix file: what {@code calibrate --pairs} writes and {@code --hetero file:PATH}
 * and {@code MPIRUNJ_MODEL=pairs:PATH} read. JSON, one object:
 *
 * <pre>
 * {
 *   "format": "mpirunj-pairs/1",
 *   "timeUnit": "us",
 *   "nodes": 3,
 *   "latency":   [[0, 12.5, 900], [12.5, 0, 870], [900, 870, 0]],
 *   "bandwidth": [[0, 180, 0.02], [180, 0, 0.03], [0.02, 0.03, 0]],
 *   "source": "calibrate --pairs, 2026-11-23, 3 hosts"
 * }
 * </pre>
 *
 * <ul>
 *   <li>{@code format} (required) is {@value #FORMAT}; a later incompatible layout gets a new number.</li>
 *   <li>{@code timeUnit} (optional, default {@code us}) names the model time unit, free text for
 *       people; the numbers are used as they are.</li>
 *   <li>{@code latency[a][b]}: time from a to b of an empty message, in time units, finite and &gt;= 0.</li>
 *   <li>{@code bandwidth[a][b]}: bytes per time unit from a to b, &gt; 0 (with µs, bytes/µs = MB/s).
 *       The cost of an m-byte message is {@code latency[a][b] + m / bandwidth[a][b]}.</li>
 *   <li>Both matrices are {@code nodes} x {@code nodes}, row a = sender, column b = receiver (node i is
 *       rank i); the diagonal is ignored (write 0). Matrices need not be symmetric.</li>
 *   <li>{@code source} (optional): free text saying how the matrix was obtained.</li>
 * </ul>
 * Unknown fields, missing required ones and bad values are rejected with one line naming the file and
 * the problem.
 */
public final class PairMatrixFile {

    /** The {@code format} value of this layout. */
    public static final String FORMAT = "mpirunj-pairs/1";

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(SerializationFeature.INDENT_OUTPUT);

    /** The file's JSON object. */
    @JsonPropertyOrder({"format", "timeUnit", "nodes", "latency", "bandwidth", "source"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Document(String format, String timeUnit, int nodes, double[][] latency, double[][] bandwidth,
                           String source) {
    }

    private PairMatrixFile() {
    }

    /**
     * Reads a matrix file; the model is labelled {@code pairs:PATH} (as written).
     *
     * @throws IllegalArgumentException one line naming the file and what is wrong with it
     */
    public static PairCostModel read(Path file) {
        String where = "pairs file " + file;
        Document d;
        try {
            d = JSON.readValue(Files.readAllBytes(file), Document.class);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(where + ": no such file");
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(where + ": " + io.mpirunj.io.JsonErrors.reason(e));
        } catch (IOException e) {
            throw new IllegalArgumentException(where + ": cannot read: " + IoErrors.reason(e, file));
        }
        return toModel(d, where, "pairs:" + file);
    }

    /** Parses a document already in memory (tests, other tools); {@code where} prefixes errors. */
    public static PairCostModel toModel(Document d, String where, String label) {
        if (d == null) {
            throw new IllegalArgumentException(where + ": empty (expected: a JSON object with format " + FORMAT + ")");
        }
        if (!FORMAT.equals(d.format())) {
            throw new IllegalArgumentException(where + ": format=" + d.format() + " (expected: " + FORMAT + ")");
        }
        if (d.nodes() < 1) {
            throw new IllegalArgumentException(where + ": nodes=" + d.nodes() + " (expected: >= 1)");
        }
        checkSquare(where, "latency", d.latency(), d.nodes());
        checkSquare(where, "bandwidth", d.bandwidth(), d.nodes());
        try {
            return new PairCostModel(d.latency(), d.bandwidth(), label, 0);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage());
        }
    }

    private static void checkSquare(String where, String name, double[][] m, int nodes) {
        if (m == null) {
            throw new IllegalArgumentException(where + ": missing \"" + name + "\" (expected: a " + nodes + "x" + nodes
                    + " array of numbers)");
        }
        if (m.length != nodes) {
            throw new IllegalArgumentException(where + ": " + name + " has " + m.length + " rows (expected: nodes="
                    + nodes + ")");
        }
        for (int a = 0; a < nodes; a++) {
            if (m[a] == null || m[a].length != nodes) {
                throw new IllegalArgumentException(where + ": " + name + " row " + a + " has "
                        + (m[a] == null ? 0 : m[a].length) + " entries (expected: nodes=" + nodes + ")");
            }
        }
    }

    /** The document for {@code model} (diagonal written as 0). */
    public static Document toDocument(PairCostModel model, String timeUnit, String source) {
        int n = model.nodes();
        double[][] l = new double[n][n];
        double[][] bw = new double[n][n];
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
                if (a != b) {
                    l[a][b] = model.latency(a, b);
                    bw[a][b] = model.bandwidth(a, b);
                }
            }
        }
        return new Document(FORMAT, timeUnit, n, l, bw, source);
    }

    /** Writes {@code model} to {@code file} in this format. */
    public static void write(Path file, PairCostModel model, String timeUnit, String source) throws IOException {
        for (int a = 0; a < model.nodes(); a++) {
            for (int b = 0; b < model.nodes(); b++) {
                if (a != b && Double.isInfinite(model.bandwidth(a, b))) {
                    throw new IllegalArgumentException("bandwidth[" + a + "][" + b + "] is infinite: JSON has no "
                            + "infinity (expected: a finite bandwidth in the file)");
                }
            }
        }
        Files.write(file, JSON.writeValueAsBytes(toDocument(model, timeUnit, source)));
    }
}
