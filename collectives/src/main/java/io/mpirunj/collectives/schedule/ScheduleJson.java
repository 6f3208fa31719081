package io.mpirunj.collectives.schedule;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mpirunj.Op;
import io.mpirunj.runtime.spi.LowerCaseNames;
import java.util.ArrayList;
import java.util.List;

/**
 * A schedule's programs as JSON (Jackson's tree model), written by {@code mpirun-j schedule --json}
 * and read back by {@code simulate --schedule}, {@code schedule --verify} and
 * {@code --coll bcast=file:FILE.json}, so schedules can be written by hand or generated elsewhere.
 * Writing what was read gives the same bytes. The fields the exports add beside the programs (a simulation's
 * model, times and messages: {@link #addPrograms}; an all-to-all's counts) are read past, so those exports read
 * back too; any other field is refused, as is a number that is not a whole one in its range.
 *
 * <pre>
 * {
 *   "op" : "bcast", "algorithm" : "binomial", "ranks" : 4, "root" : 0, "bytes" : 1024,
 *   "units" : [ "whole" ],                       (one-to-many only; or [{"segment":[offset,length]}, ...])
 *   "pairBytes" : [ [..], .. ],                  (all-to-all with per-pair sizes only)
 *   "note" : "...",                              (when the builder left one)
 *   "programs" : [                               (one array per rank, in program order)
 *     [ {"op":"send","peer":1,"step":1,"blocks":["whole"]},      (optional "path":[nodes], "port":n)
 *       {"op":"recv","peer":2,"step":2,"blocks":[{"segment":[0,512]}]},
 *       {"op":"recv_first_of","peers":[1,4],"step":1,"blocks":[...]},
 *       {"op":"copy","step":0,"from":{"range":["send",0,8]},"to":{"range":["recv",0,8]}},
 *       {"op":"reduce","reduce":"sum","step":1,"from":{"range":["scratch",0,8]},"to":{...}} ], ... ]
 * }
 * </pre>
 * Blocks: {@code "whole"}, {@code {"segment":[offset,length]}}, {@code {"pair":[origin,destination]}},
 * {@code {"range":["send"|"recv"|"scratch",offset,length]}}.
 */
public final class ScheduleJson {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** Objects indented, arrays of numbers and blocks kept on one line: readable and stable. */
    private static final ObjectWriter WRITER = MAPPER.writer(new DefaultPrettyPrinter()
            .withArrayIndenter(DefaultPrettyPrinter.NopIndenter.instance)
            .withObjectIndenter(new DefaultIndenter("  ", "\n")));

    private ScheduleJson() {
    }

    /** The schedule as JSON text, ending with a newline. */
    public static String write(Schedule s) {
        ObjectNode root = MAPPER.createObjectNode();
        addName(root, s);
        if (!s.note().isEmpty()) {
            root.put("note", s.note());
        }
        addPrograms(root, s);
        try {
            return WRITER.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + s + " as JSON", e);
        }
    }

    /** Adds what names the schedule: {@code op}, {@code algorithm}, {@code ranks}, {@code root}, {@code bytes}. */
    public static void addName(ObjectNode json, Schedule s) {
        json.put("op", s.collective().label());
        json.put("algorithm", s.algorithm());
        json.put("ranks", s.ranks());
        json.put("root", s.root());
        json.put("bytes", s.messageBytes());
    }

    /**
     * Adds the schedule's layout and programs ({@code units}, {@code pairBytes}, {@code programs}) to an
     * object that already names it ({@code op}, {@code algorithm}, {@code ranks}, {@code root},
     * {@code bytes}, {@code note}), e.g. a simulation's export, so the export can be read back.
     */
    public static void addPrograms(ObjectNode root, Schedule s) {
        if (s.collective().rooted()) {
            root.set("units", blocks(s.units()));
        }
        if (s.hasPairBytes()) {
            ArrayNode rows = root.putArray("pairBytes");
            for (int o = 0; o < s.ranks(); o++) {
                ArrayNode row = rows.addArray();
                for (int d = 0; d < s.ranks(); d++) {
                    row.add(s.pairBytes(o, d));
                }
            }
        }
        ArrayNode programs = root.putArray("programs");
        for (int r = 0; r < s.ranks(); r++) {
            ArrayNode program = programs.addArray();
            for (Instruction in : s.program(r)) {
                program.add(instruction(in));
            }
        }
    }

    /**
     * As {@link #addPrograms}, written into {@code json} (whose codec may be none), e.g. after an all-to-all export's
     * streamed messages.
     */
    public static void writePrograms(com.fasterxml.jackson.core.JsonGenerator json, Schedule s)
            throws java.io.IOException {
        ObjectNode parts = MAPPER.createObjectNode();
        addPrograms(parts, s);
        for (java.util.Iterator<java.util.Map.Entry<String, JsonNode>> it = parts.fields(); it.hasNext(); ) {
            java.util.Map.Entry<String, JsonNode> e = it.next();
            json.writeFieldName(e.getKey());
            MAPPER.writeTree(json, e.getValue());
        }
    }

    private static ObjectNode instruction(Instruction in) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("op", LowerCaseNames.of(in.kind()));
        if (in.kind() == Instruction.Kind.REDUCE) {
            n.put("reduce", LowerCaseNames.of(in.op()));
        }
        if (in.kind() == Instruction.Kind.RECV_FIRST_OF) {
            ArrayNode peers = n.putArray("peers");
            for (int p : in.peers()) {
                peers.add(p);
            }
        } else if (!in.isLocal()) {
            n.put("peer", in.peer());
        }
        n.put("step", in.step());
        if (in.isLocal()) {
            n.set("from", block(in.blocks().get(0)));
            n.set("to", block(in.target()));
        } else {
            n.set("blocks", blocks(in.blocks()));
        }
        if (in.hasPath()) {
            ArrayNode path = n.putArray("path");
            for (int node : in.path()) {
                path.add(node);
            }
        }
        if (in.port() != Instruction.ANY_PORT) {
            n.put("port", in.port());
        }
        return n;
    }

    private static ArrayNode blocks(List<Block> blocks) {
        ArrayNode a = MAPPER.createArrayNode();
        for (Block b : blocks) {
            a.add(block(b));
        }
        return a;
    }

    private static JsonNode block(Block b) {
        if (b instanceof Block.Whole) {
            return MAPPER.getNodeFactory().textNode("whole");
        }
        ObjectNode n = MAPPER.createObjectNode();
        if (b instanceof Block.Segment s) {
            n.putArray("segment").add(s.offset()).add(s.length());
        } else if (b instanceof Block.Pair p) {
            n.putArray("pair").add(p.origin()).add(p.destination());
        } else {
            Block.Range r = (Block.Range) b;
            n.putArray("range").add(r.role().label()).add(r.offset()).add(r.length());
        }
        return n;
    }

    /**
     * A schedule file as {@code schedule --json} writes it: its schedule, and the {@code "model"} it was simulated
     * on and its {@code "evaluation"} (fields {@link #read} reads past), each null if it names none.
     */
    public record Document(Schedule schedule, String model, String evaluation) {
    }

    /**
     * Reads a schedule. Malformed JSON is reported with its line and column; a bad field names the
     * rank and the instruction index. The schedule is not verified here (see {@link Verifier}).
     *
     * @throws IllegalArgumentException with a one-line message
     */
    public static Schedule read(String json) {
        return read(tree(json));
    }

    /** {@link #read}, with the model and evaluation the file names, from one parse of {@code json}. */
    public static Document readDocument(String json) {
        JsonNode root = tree(json);
        return new Document(read(root), root.path("model").isTextual() ? root.get("model").asText() : null,
                root.path("evaluation").isTextual() ? root.get("evaluation").asText() : null);
    }

    /** {@code json}'s tree, a JSON object. */
    private static JsonNode tree(String json) {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(io.mpirunj.io.JsonErrors.reason(e));
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException((json.isBlank() ? "empty file" : "not a JSON object")
                    + " (expected: a schedule, {\"op\": ..., \"programs\": [...]})");
        }
        onlyFields(root, FIELDS, null);
        return root;
    }

    /**
     * Refuses a field of object {@code n} not in {@code allowed} (sorted), naming it and where it is ({@code where}:
     * null at the top): a misspelt or misplaced field must not be dropped in silence.
     */
    private static void onlyFields(JsonNode n, java.util.Set<String> allowed, String where) {
        for (java.util.Iterator<String> names = n.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!allowed.contains(name)) {
                throw new IllegalArgumentException((where == null ? "" : where + ": ") + "unknown field \"" + name
                        + "\" (expected " + (allowed.size() == 1 ? "" : "one of: ") + String.join(", ", allowed)
                        + ")");
            }
        }
    }

    private static Schedule read(JsonNode root) {
        Collective collective = Collective.fromLabel(text(root, "op", "schedule"));
        long ranksGiven = field(root, "ranks", "schedule", 0, Long.MAX_VALUE);
        JsonNode programs = root.get("programs");
        // before anything is sized by "ranks": a wrong count must not allocate for it
        if (programs == null || !programs.isArray() || programs.size() != ranksGiven) {
            throw new IllegalArgumentException("\"programs\" must be an array of " + ranksGiven
                    + " programs, one per rank (\"ranks\": " + ranksGiven + ")");
        }
        int ranks = (int) ranksGiven;
        Schedule.Builder b = Schedule.builder(collective, text(root, "algorithm", "schedule"), ranks,
                (int) field(root, "root", "schedule", -1, Integer.MAX_VALUE),
                field(root, "bytes", "schedule", 0, Long.MAX_VALUE));
        if (root.has("units")) {
            b.units(blocks(root.get("units"), "units"));
        }
        if (root.has("pairBytes")) {
            JsonNode rows = root.get("pairBytes");
            long[][] bytes = new long[rows.size()][];
            for (int o = 0; o < rows.size(); o++) {
                bytes[o] = new long[rows.get(o).size()];
                for (int d = 0; d < bytes[o].length; d++) {
                    bytes[o][d] = whole(rows.get(o).get(d), "\"pairBytes\"", "schedule", 0, Long.MAX_VALUE);
                }
            }
            b.pairBytes(bytes);
        }
        if (root.has("note")) {
            b.note(text(root, "note", "schedule"));
        }
        for (int r = 0; r < ranks; r++) {
            JsonNode program = programs.get(r);
            for (int i = 0; i < program.size(); i++) {
                String where = "rank " + r + " instruction #" + i;
                try {
                    b.instruction(r, instruction(program.get(i), where));
                } catch (IllegalArgumentException e) {
                    throw e.getMessage().startsWith(where) ? e : new IllegalArgumentException(where + ": " + e.getMessage());
                }
            }
        }
        return b.build();
    }

    private static Instruction instruction(JsonNode n, String where) {
        String op = text(n, "op", where);
        java.util.Set<String> fields = INSTRUCTION_FIELDS.get(op);
        if (fields != null) {
            onlyFields(n, fields, where + " (" + op + ")");
        }
        int step = (int) field(n, "step", where, 0, Integer.MAX_VALUE);
        switch (op) {
            case "send": {
                int[] path = n.has("path") ? ints(n.get("path"), "\"path\"", where) : new int[0];
                int port = n.has("port") ? (int) field(n, "port", where, Instruction.ANY_PORT, Integer.MAX_VALUE)
                        : Instruction.ANY_PORT;
                return Instruction.send(peer(n, where), blocks(n.get("blocks"), where), step, path, port);
            }
            case "recv":
                return Instruction.recv(peer(n, where), blocks(n.get("blocks"), where), step);
            case "recv_first_of":
                return Instruction.recvFirstOf(ints(n.get("peers"), "\"peers\"", where), blocks(n.get("blocks"), where),
                        step);
            case "copy":
                return Instruction.copy(block(n.get("from"), where), block(n.get("to"), where), step);
            case "reduce":
                return Instruction.reduce(reduceOp(text(n, "reduce", where), where), block(n.get("from"), where),
                        block(n.get("to"), where), step);
            default:
                throw new IllegalArgumentException(where + ": unknown op '" + op
                        + "' (expected one of: send, recv, recv_first_of, copy, reduce)");
        }
    }

    private static Op reduceOp(String name, String where) {
        try {
            return LowerCaseNames.parse(Op.values(), name, "reduction");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    private static List<Block> blocks(JsonNode a, String where) {
        if (a == null || !a.isArray()) {
            throw new IllegalArgumentException(where + ": \"blocks\" must be an array");
        }
        List<Block> out = new ArrayList<>(a.size());
        for (JsonNode n : a) {
            out.add(block(n, where));
        }
        return out;
    }

    private static Block block(JsonNode n, String where) {
        if (n == null) {
            throw new IllegalArgumentException(where + ": missing block");
        }
        if (n.isTextual() && n.asText().equals("whole")) {
            return Block.WHOLE;
        }
        if (n.size() != 1) {
            throw badBlock(n, where);
        }
        if (n.has("segment") && n.get("segment").size() == 2) {
            return new Block.Segment(whole(n.get("segment").get(0), "a segment's offset", where, 0, Long.MAX_VALUE),
                    whole(n.get("segment").get(1), "a segment's length", where, 0, Long.MAX_VALUE));
        }
        if (n.has("pair") && n.get("pair").size() == 2) {
            return new Block.Pair((int) whole(n.get("pair").get(0), "a pair's origin", where, 0, Integer.MAX_VALUE),
                    (int) whole(n.get("pair").get(1), "a pair's destination", where, 0, Integer.MAX_VALUE));
        }
        if (n.has("range") && n.get("range").size() == 3) {
            JsonNode r = n.get("range");
            Block.Role role = null;
            for (Block.Role candidate : Block.Role.values()) {
                if (candidate.label().equals(r.get(0).asText())) {
                    role = candidate;
                }
            }
            if (role == null) {
                throw new IllegalArgumentException(where + ": unknown buffer '" + r.get(0).asText()
                        + "' (expected: send, recv or scratch)");
            }
            return new Block.Range(role, whole(r.get(1), "a range's offset", where, 0, Long.MAX_VALUE),
                    whole(r.get(2), "a range's length", where, 0, Long.MAX_VALUE));
        }
        throw badBlock(n, where);
    }

    private static IllegalArgumentException badBlock(JsonNode n, String where) {
        return new IllegalArgumentException(where + ": bad block " + n + " (expected: \"whole\", "
                + "{\"segment\":[offset,length]}, {\"pair\":[origin,destination]} or {\"range\":[buffer,offset,length]})");
    }

    private static int[] ints(JsonNode a, String what, String where) {
        if (a == null || !a.isArray()) {
            throw new IllegalArgumentException(where + ": " + what + " must be an array of whole numbers");
        }
        int[] out = new int[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = (int) whole(a.get(i), what, where, 0, Integer.MAX_VALUE);
        }
        return out;
    }

    private static int peer(JsonNode n, String where) {
        return (int) field(n, "peer", where, 0, Integer.MAX_VALUE);
    }

    /** {@code n}'s {@code field} as a {@link #whole} number; its absence is an error too. */
    private static long field(JsonNode n, String field, String where, long min, long max) {
        if (n.get(field) == null) {
            throw new IllegalArgumentException(where + ": missing integer field \"" + field + "\"");
        }
        return whole(n.get(field), "\"" + field + "\"", where, min, max);
    }

    /**
     * {@code v} as a whole number in [{@code min}, {@code max}]; {@code what} names it. Every number of a file goes
     * through here: a string, a fraction or a value cut by a cast (4294967295 as an int is -1) is refused.
     */
    private static long whole(JsonNode v, String what, String where, long min, long max) {
        if (v == null) {
            throw new IllegalArgumentException(where + ": missing " + what);
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw new IllegalArgumentException(where + ": " + what + " must be a whole number (got " + v + ")");
        }
        long x = v.asLong();
        if (x < min || x > max) {
            throw new IllegalArgumentException(where + ": " + what + ": " + x + " (expected: "
                    + (max == Long.MAX_VALUE ? ">= " + min : min + ".." + max) + ")");
        }
        return x;
    }

    private static String text(JsonNode n, String field, String where) {
        JsonNode v = n.get(field);
        if (v == null) {
            throw new IllegalArgumentException(where + ": missing text field \"" + field + "\"");
        }
        if (!v.isTextual()) {
            throw new IllegalArgumentException(where + ": \"" + field + "\" must be text (got " + v + ")");
        }
        return v.asText();
    }

    /**
     * The top-level fields a schedule file may have: the schedule's, and what the exports add beside it (a simulation's
     * model, times and messages; an all-to-all's counts).
     */
    private static final java.util.Set<String> FIELDS = new java.util.TreeSet<>(List.of("op", "algorithm", "ranks",
            "root", "bytes", "note", "units", "pairBytes", "programs", "model", "evaluation", "completion", "messages",
            "contention", "steps", "nodes", "transmitted", "rearranged", "messageCount", "contentionEvents"));

    /** The fields of each instruction, by its op: what {@link #instruction(Instruction)} writes. */
    private static final java.util.Map<String, java.util.Set<String>> INSTRUCTION_FIELDS = java.util.Map.of(
            "send", fields("op", "step", "peer", "blocks", "path", "port"),
            "recv", fields("op", "step", "peer", "blocks"),
            "recv_first_of", fields("op", "step", "peers", "blocks"),
            "copy", fields("op", "step", "from", "to"),
            "reduce", fields("op", "step", "reduce", "from", "to"));

    private static java.util.Set<String> fields(String... names) {
        return new java.util.TreeSet<>(List.of(names));
    }
}
