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
 * The (t_hold, t_end) model file {@code mpirun-j calibrate --out model.json} writes, and
 * {@link ModelSpec#parse} reads for any spec ending in {@code .json} (so {@code simulate --model
 * model.json} and a job's {@code MPIRUNJ_MODEL=model.json} take it). JSON, one object:
 *
 * <pre>
 * {
 *   "format": "mpirunj-model/1",
 *   "timeUnit": "us",
 *   "hold": {"a": 20.3, "b": 0.0201, "r2": 0.9993},
 *   "end":  {"a": 55.8, "b": 0.0702, "r2": 0.9998},
 *   "ports": 1,
 *   "logp": {"L": 50.1, "o": 2.8, "g": 20.3},
 *   "sizes": [1024, 4096], "tHold": [40.9, 102.6], "tEnd": [127.7, 343.1],
 *   "source": "calibrate -np 16 --threads ..."
 * }
 * </pre>
 * {@code format}, {@code hold} and {@code end} (with {@code a}, {@code b}: t = a + b·m, m in bytes) are
 * required; {@code ports} defaults to 1; the rest is what was measured, for people and later tools.
 * Unknown fields and bad values are rejected with one line naming the file and the problem.
 */
public final class ModelFile {

    public static final String FORMAT = "mpirunj-model/1";

    /** Made on first use: {@link #isModelFile} runs for every model spec parsed and must not load Jackson. */
    private static final class Json {
        static final ObjectMapper MAPPER = com.fasterxml.jackson.databind.json.JsonMapper.builder()
                .disable(com.fasterxml.jackson.databind.MapperFeature.ALLOW_COERCION_OF_SCALARS) // "a": "33" is no number
                .build()
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(SerializationFeature.INDENT_OUTPUT);
    }

    /** A fitted line t = a + b·m and its coefficient of determination (null when not known). */
    @JsonPropertyOrder({"a", "b", "r2"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Fit(double a, double b, Double r2) {
    }

    /** LogP parameters derived from the measurement. */
    @JsonPropertyOrder({"L", "o", "g"})
    public record LogP(@com.fasterxml.jackson.annotation.JsonProperty("L") double latency,
                       @com.fasterxml.jackson.annotation.JsonProperty("o") double overhead,
                       @com.fasterxml.jackson.annotation.JsonProperty("g") double gap) {
    }

    /** The file's JSON object. */
    @JsonPropertyOrder({"format", "timeUnit", "hold", "end", "ports", "logp", "sizes", "tHold", "tEnd", "source"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Document(String format, String timeUnit, Fit hold, Fit end, Integer ports, LogP logp, long[] sizes,
                           double[] tHold, double[] tEnd, String source) {
    }

    private ModelFile() {
    }

    /** True if {@code spec} names a model file ({@code *.json}). */
    public static boolean isModelFile(String spec) {
        return spec != null && spec.trim().toLowerCase(java.util.Locale.ROOT).endsWith(".json");
    }

    /** Reads {@code file} as a cost model; one-line {@link IllegalArgumentException} on any problem. */
    public static ParameterizedModel read(Path file) {
        return toModel(readDocument(file), file.toString());
    }

    /** Reads {@code file}'s document; one-line {@link IllegalArgumentException} on any problem. */
    public static Document readDocument(Path file) {
        String where = "model file " + file;
        Document d;
        try {
            d = Json.MAPPER.readValue(Files.readAllBytes(file), Document.class);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(where + ": no such file");
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(where + ": not a model file (" + io.mpirunj.io.JsonErrors.reason(e)
                    + "; expected: " + FORMAT + " JSON as calibrate --out writes)");
        } catch (IOException e) {
            throw new IllegalArgumentException(where + ": cannot read (" + IoErrors.reason(e, file) + ")");
        }
        if (d == null) {
            throw new IllegalArgumentException(where + ": empty (expected: " + FORMAT + " JSON as calibrate --out writes)");
        }
        return d;
    }

    /** The model of document {@code d}; {@code where} names it in errors. */
    public static ParameterizedModel toModel(Document d, String where) {
        String w = "model file " + where;
        if (!FORMAT.equals(d.format())) {
            throw new IllegalArgumentException(w + ": format " + (d.format() == null ? "missing" : "'" + d.format() + "'")
                    + " (expected: \"format\": \"" + FORMAT + "\")");
        }
        LinearCost hold = line(w, "hold", d.hold());
        LinearCost end = line(w, "end", d.end());
        if (!(end.constant() > 0)) {
            throw new IllegalArgumentException(w + ": \"end\" a=" + d.end().a() + " gives an empty message t_end 0 "
                    + "(expected: a > 0: t_end, from the start of a send to the end of its receive, is never 0)");
        }
        int ports = d.ports() == null ? 1 : d.ports();
        if (ports < 1) {
            throw new IllegalArgumentException(w + ": ports " + ports + " (expected: >= 1)");
        }
        return new ParameterizedModel(hold, end, ports);
    }

    private static LinearCost line(String where, String name, Fit f) {
        if (f == null) {
            throw new IllegalArgumentException(where + ": missing \"" + name + "\" (expected: {\"a\": .., \"b\": ..}, "
                    + name + " = a + b*m)");
        }
        if (!(f.a() >= 0) || !(f.b() >= 0) || Double.isInfinite(f.a()) || Double.isInfinite(f.b())) {
            throw new IllegalArgumentException(where + ": \"" + name + "\" a=" + f.a() + ", b=" + f.b()
                    + " (expected: finite numbers >= 0)");
        }
        return new LinearCost(f.a(), f.b());
    }

    /** Writes {@code d} to {@code file} (checked first: what is written reads back). */
    public static void write(Path file, Document d) throws IOException {
        toModel(d, file.toString());
        Files.write(file, Json.MAPPER.writeValueAsBytes(d));
    }

    /** {@code d} as indented JSON. */
    public static String toJson(Document d) {
        try {
            return Json.MAPPER.writeValueAsString(d);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
