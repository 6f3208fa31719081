package io.mpirunj.collectives.sim;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.Instruction;
import io.mpirunj.collectives.schedule.PairBlocks;
import io.mpirunj.collectives.schedule.Schedule;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Exports an all-to-all schedule of combined messages (SEM and the torus baselines) as one JSON
 * object, every message with the (origin, destination) blocks it carries and its path:
 *
 * <pre>
 * {"op":"alltoall","algorithm":"sem","ranks":256,"root":-1,"bytes":1,"steps":9,
 *  "transmitted":2175,"rearranged":2047,
 *  "messages":[{"src":0,"dst":1,"step":1,"blocks":[[0,16],[0,17],...],"path":[0,1]}, ...],
 *  "pairBytes":[...], "programs":[[...], ...]}
 * </pre>
 *
 * The programs are {@link io.mpirunj.collectives.schedule.ScheduleJson}'s, so {@code schedule --verify} and
 * {@code simulate --schedule} read the file back; they are left out above {@link #MAX_RANKS_WITH_PROGRAMS} ranks.
 *
 * Node id = rank = row·N + column. Messages are in step order, then by source; {@code step} is
 * the 1-based start-up step; {@code path} lists node ids with both ends, the message's explicit
 * path or else the fabric's default route. {@code steps}, {@code transmitted} and
 * {@code rearranged} are the start-up count and the block-unit counts of paper 001 §4 (see
 * {@code io.mpirunj.collectives.torus.AlltoallAudit}); {@code note} appears when the builder
 * left one.
 */
public final class AlltoallJson {

    private AlltoallJson() {
    }

    /** The cost counts written at the top level. */
    public record Counts(int steps, long transmitted, long rearranged) {
    }

    /**
     * The largest schedule whose export carries its programs: 16x16 (13.6 MB for SEM, against 2.8 MB without them).
     * At 32x32 a file with programs takes 325 MB, more than reading it back can hold in a default heap, and at 64x64
     * it would pass a Java string's 2^31 characters.
     */
    public static final int MAX_RANKS_WITH_PROGRAMS = 256;

    /**
     * {@code s} as JSON: its messages, and its programs unless it has more than {@link #MAX_RANKS_WITH_PROGRAMS} ranks.
     *
     * @param route the default route (node ids, both ends) of a message without an explicit path
     */
    public static String write(Schedule s, Counts counts, RouteFunction route) {
        StringWriter text = new StringWriter();
        // streamed, not a tree: a 64x64 SEM schedule carries 16.7 M blocks
        try (JsonGenerator json = new JsonFactory().createGenerator(text)) {
            json.writeStartObject();
            json.writeStringField("op", s.collective().label());
            json.writeStringField("algorithm", s.algorithm());
            json.writeNumberField("ranks", s.ranks());
            json.writeNumberField("root", s.root());
            json.writeNumberField("bytes", s.messageBytes());
            json.writeNumberField("steps", counts.steps());
            json.writeNumberField("transmitted", counts.transmitted());
            json.writeNumberField("rearranged", counts.rearranged());
            if (!s.note().isEmpty()) {
                json.writeStringField("note", s.note());
            }
            json.writeArrayFieldStart("messages");
            for (int[] m : sendsInStepOrder(s)) {
                Instruction in = s.program(m[0]).get(m[1]);
                json.writeStartObject();
                json.writeNumberField("src", m[0]);
                json.writeNumberField("dst", in.peer());
                json.writeNumberField("step", in.step());
                json.writeArrayFieldStart("blocks");
                writeBlocks(json, in.blocks());
                json.writeEndArray();
                json.writeArrayFieldStart("path");
                for (int node : in.hasPath() ? in.path() : route.route(m[0], in.peer())) {
                    json.writeNumber(node);
                }
                json.writeEndArray();
                json.writeEndObject();
            }
            json.writeEndArray();
            if (s.ranks() <= MAX_RANKS_WITH_PROGRAMS) {
                io.mpirunj.collectives.schedule.ScheduleJson.writePrograms(json, s); // so the file can be read back
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the schedule of " + s, e);
        }
        return text.toString();
    }

    /** The default route of a message, node ids with both ends. */
    @FunctionalInterface
    public interface RouteFunction {
        int[] route(int src, int dst);
    }

    /** (rank, program index) of every send, by step and then rank. */
    public static List<int[]> sendsInStepOrder(Schedule s) {
        List<int[]> sends = new ArrayList<>();
        for (int r = 0; r < s.ranks(); r++) {
            List<Instruction> program = s.program(r);
            for (int i = 0; i < program.size(); i++) {
                if (program.get(i).isSend()) {
                    sends.add(new int[] {r, i, program.get(i).step()});
                }
            }
        }
        sends.sort(Comparator.<int[]>comparingInt(a -> a[2]).thenComparingInt(a -> a[0]).thenComparingInt(a -> a[1]));
        return sends;
    }

    private static void writeBlocks(JsonGenerator json, List<Block> blocks) throws IOException {
        if (blocks instanceof PairBlocks pairs) { // no Pair objects for the big ones
            for (int p = 0; p < pairs.productCount(); p++) {
                for (int o : pairs.origins(p)) {
                    for (int d : pairs.destinations(p)) {
                        if (o != d) {
                            json.writeArray(new int[] {o, d}, 0, 2);
                        }
                    }
                }
            }
            return;
        }
        for (Block b : blocks) {
            Block.Pair pair = (Block.Pair) b;
            json.writeArray(new int[] {pair.origin(), pair.destination()}, 0, 2);
        }
    }
}
