package io.mpirunj.runtime.spi;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.mpirunj.io.IoErrors;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A collective rules file ({@code mpirun-j --coll-rules FILE}): per operation, a communicator-size range
 * and a message-size range mapped to an algorithm (and, for segmented ones, a segment size), as Open
 * MPI's {@code coll_tuned_dynamic_rules_filename}. The first rule that matches a call wins. Schema
 * (every field but {@code op} and {@code algorithm} optional):
 *
 * <pre>
 * {
 *   "comment": "what the rules are for and how they were made",
 *   "conditions": { ...free-form: machine, load, date, sweep... },
 *   "rules": [
 *     {"op": "bcast", "minRanks": 2, "maxRanks": 8, "minBytes": 0, "maxBytes": 8191, "algorithm": "binomial-p2p"},
 *     {"op": "bcast", "minBytes": 8192, "algorithm": "chain-pipelined", "segmentBytes": 65536},
 *     {"op": "alltoall", "algorithm": "auto", "note": "let the model decide"}
 *   ]
 * }
 * </pre>
 *
 * Ranges are inclusive; ranks default to 1..any, bytes to 0..any. The message size is what all ranks of
 * a call agree on: the buffer of bcast, multicast, reduce, allreduce, reduce_scatter, scan and exscan,
 * the per-rank block of alltoall, gather, scatter, allgather and reduce_scatter_block; the v-variants
 * and barrier have no size (a rule for them with a byte range is refused: it could never match). {@code "algorithm": "auto"} hands the call to the model ({@code --model}).
 *
 * <p>Immutable; thread-safe. Every error is one line naming the file and the offending entry and line.
 */
public final class CollRules {
    /** The algorithm name that defers to model-based selection. */
    public static final String AUTO = "auto";

    /** One rule; {@code where} locates it in its file ({@code rules[2] (line 14)}) for error messages. */
    public record Rule(CollectiveOp op, int minRanks, int maxRanks, long minBytes, long maxBytes, String algorithm,
            long segmentBytes, String where) {

        /** True for a call on {@code ranks} ranks of {@code bytes} (negative: a call without a common size). */
        public boolean matches(int ranks, long bytes) {
            if (ranks < minRanks || ranks > maxRanks) {
                return false;
            }
            if (bytes < 0) {
                return minBytes == 0 && maxBytes == Long.MAX_VALUE;
            }
            return bytes >= minBytes && bytes <= maxBytes;
        }
    }

    /** The JSON form of a rule (also what {@code bench --write-rules} writes). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"op", "minRanks", "maxRanks", "minBytes", "maxBytes", "algorithm", "segmentBytes", "note"})
    public record RuleJson(String op, Integer minRanks, Integer maxRanks, Long minBytes, Long maxBytes,
            String algorithm, Long segmentBytes, String note) {
    }

    /** The JSON form of a whole file. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"comment", "conditions", "rules"})
    public record FileJson(String comment, Map<String, Object> conditions, List<RuleJson> rules) {
    }

    /** No rules. */
    public static final CollRules NONE = new CollRules(List.of(), "no rules");

    /** Jackson loads only when a rules file is read or written, not at every rank's start. */
    private static final class Json {
        /**
         * Strict as a rules file must be: a number written as a string or with a fraction, or a field given twice,
         * is refused (Jackson takes "10", truncates 10.5 and keeps the last of two by default).
         */
        static final ObjectMapper MAPPER = com.fasterxml.jackson.databind.json.JsonMapper.builder()
                .enable(SerializationFeature.INDENT_OUTPUT)
                .disable(com.fasterxml.jackson.databind.MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .disable(com.fasterxml.jackson.databind.DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build();
    }

    private final List<Rule> rules;
    private final Map<CollectiveOp, Rule[]> byOp = new EnumMap<>(CollectiveOp.class);
    private final String source;

    public CollRules(List<Rule> rules, String source) {
        this.rules = List.copyOf(rules);
        this.source = source;
        Map<CollectiveOp, List<Rule>> grouped = new EnumMap<>(CollectiveOp.class);
        for (Rule r : rules) {
            grouped.computeIfAbsent(r.op(), k -> new ArrayList<>()).add(r);
        }
        grouped.forEach((op, list) -> byOp.put(op, list.toArray(Rule[]::new)));
    }

    /** The first rule for {@code op} matching a call on {@code ranks} ranks of {@code bytes}, or null. */
    public Rule match(CollectiveOp op, int ranks, long bytes) {
        Rule[] candidates = byOp.get(op);
        if (candidates != null) {
            for (Rule r : candidates) {
                if (r.matches(ranks, bytes)) {
                    return r;
                }
            }
        }
        return null;
    }

    /**
     * True when {@link #match} gives {@code op} the same answer for every size from {@code lo} to {@code hi}
     * (whatever the rank count): no rule of {@code op} starts or ends inside the range.
     */
    public boolean sameMatchOver(CollectiveOp op, long lo, long hi) {
        Rule[] candidates = byOp.get(op);
        if (candidates != null) {
            for (Rule r : candidates) {
                if ((r.minBytes() > lo && r.minBytes() <= hi) || (r.maxBytes() >= lo && r.maxBytes() < hi)) {
                    return false;
                }
            }
        }
        return true;
    }

    public List<Rule> rules() {
        return rules;
    }

    /** Where the rules came from (a file name), for messages. */
    public String source() {
        return source;
    }

    public boolean isEmpty() {
        return rules.isEmpty();
    }

    /**
     * Reads a rules file.
     *
     * @throws IllegalArgumentException one line: the file, the entry and line, what is wrong
     */
    public static CollRules load(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read the rules file: " + IoErrors.reason(e, file));
        }
        return parse(text, file.toString());
    }

    /** Parses rules from {@code json}; {@code source} names it in errors. */
    public static CollRules parse(String json, String source) {
        List<Rule> out = new ArrayList<>();
        try (JsonParser p = Json.MAPPER.getFactory().createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw bad(source, p.currentTokenLocation(), "expected a JSON object {\"rules\": [...]}");
            }
            boolean sawRules = false;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonLocation at = p.currentTokenLocation();
                p.nextToken();
                switch (field) {
                    case "comment", "conditions" -> p.skipChildren();
                    case "rules" -> {
                        sawRules = true;
                        if (p.currentToken() != JsonToken.START_ARRAY) {
                            throw bad(source, at, "\"rules\" must be an array of rule objects");
                        }
                        int index = 0;
                        while (p.nextToken() != JsonToken.END_ARRAY) {
                            JsonLocation ruleAt = p.currentTokenLocation();
                            String where = "rules[" + index + "] (line " + ruleAt.getLineNr() + ")";
                            RuleJson r;
                            try {
                                r = Json.MAPPER.readValue(p, RuleJson.class);
                            } catch (JsonProcessingException e) {
                                throw new IllegalArgumentException(source + ": " + where + ": " + io.mpirunj.io.JsonErrors.reason(e));
                            }
                            out.add(check(r, source + ": " + where, where));
                            index++;
                        }
                    }
                    default -> throw bad(source, at, "unknown field \"" + field
                            + "\" (expected: comment, conditions, rules)");
                }
            }
            if (!sawRules) {
                throw new IllegalArgumentException(source + ": no \"rules\" array");
            }
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw new IllegalArgumentException(source + (at == null ? "" : ": line " + at.getLineNr() + ", column "
                    + at.getColumnNr()) + ": malformed JSON: " + io.mpirunj.io.JsonErrors.message(e));
        } catch (IOException e) {
            throw new IllegalArgumentException(source + ": " + e.getMessage());
        }
        return new CollRules(out, source);
    }

    private static Rule check(RuleJson r, String where, String shortWhere) {
        if (r == null) {
            throw new IllegalArgumentException(where + ": expected a rule object, got null");
        }
        if (r.op() == null) {
            throw new IllegalArgumentException(where + ": missing \"op\" (e.g. \"op\": \"bcast\")");
        }
        CollectiveOp op;
        try {
            op = CollectiveOp.fromCliName(r.op());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage());
        }
        if (r.algorithm() == null || r.algorithm().isBlank()) {
            throw new IllegalArgumentException(where + ": missing \"algorithm\"");
        }
        int minRanks = r.minRanks() == null ? 1 : r.minRanks();
        int maxRanks = r.maxRanks() == null ? Integer.MAX_VALUE : r.maxRanks();
        long minBytes = r.minBytes() == null ? 0 : r.minBytes();
        long maxBytes = r.maxBytes() == null ? Long.MAX_VALUE : r.maxBytes();
        if (minRanks < 1 || maxRanks < minRanks) {
            throw new IllegalArgumentException(where + ": minRanks=" + minRanks + ", maxRanks=" + maxRanks
                    + " (expected: 1 <= minRanks <= maxRanks)");
        }
        if (minBytes < 0 || maxBytes < minBytes) {
            throw new IllegalArgumentException(where + ": minBytes=" + minBytes + ", maxBytes=" + maxBytes
                    + " (expected: 0 <= minBytes <= maxBytes)");
        }
        long segment = r.segmentBytes() == null ? 0 : r.segmentBytes();
        if (r.segmentBytes() != null && segment < 1) {
            throw new IllegalArgumentException(where + ": segmentBytes=" + segment + " (expected: >= 1)");
        }
        if (r.segmentBytes() != null && AUTO.equals(r.algorithm().trim())) {
            throw new IllegalArgumentException(where + ": segmentBytes with \"auto\" (auto chooses its own; give a"
                    + " segmented algorithm, e.g. chain-pipelined)");
        }
        if (!op.sized() && (minBytes > 0 || r.maxBytes() != null)) { // minBytes 0 is the whole range: it matches
            throw new IllegalArgumentException(where + ": a byte range for " + op.cliName() + ", whose calls have no"
                    + " size the ranks agree on (it would never match: leave minBytes and maxBytes out)");
        }
        return new Rule(op, minRanks, maxRanks, minBytes, maxBytes, r.algorithm().trim(), segment, shortWhere);
    }

    private static IllegalArgumentException bad(String source, JsonLocation at, String what) {
        return new IllegalArgumentException(source + ": line " + at.getLineNr() + ": " + what);
    }

    /** A rules file's text as written ({@link #parse} checks it first, so errors are its one-liners). */
    public static FileJson readFile(String json, String source) {
        parse(json, source);
        try {
            return Json.MAPPER.readValue(json, FileJson.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(source + ": " + io.mpirunj.io.JsonErrors.reason(e));
        }
    }

    /** The JSON text of a rules file with this comment, conditions and rules (as {@link #parse} reads it). */
    public static String write(String comment, Map<String, Object> conditions, List<RuleJson> rules) {
        try {
            return Json.MAPPER.writeValueAsString(new FileJson(comment, new LinkedHashMap<>(conditions), rules)) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write rules: " + e.getMessage(), e);
        }
    }
}
