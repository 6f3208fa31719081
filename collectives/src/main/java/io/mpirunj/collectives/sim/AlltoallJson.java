package io.mpirunj.collectives.sim;

import io.mpirunj.collectives.schedule.Block;
import io.mpirunj.collectives.schedule.Instruction;
import io.mpirunj.collectives.schedule.PairBlocks;
import io.mpirunj.collectives.schedule.Schedule;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Exports an all-to-all schedule of combined messages (SEM and the torus baselines) as one JSON
 * object, every message with the (origin, destination) blocks it carries and its path:
 *
 * <pre>
 * {"op":"alltoall","algorithm":"sem","ranks":256,"bytes":1,"steps":9,
 *  "transmitted":2175,"rearranged":2047,
 *  "messages":[{"src":0,"dst":1,"step":1,"blocks":[[0,16],[0,17],...],"path":[0,1]}, ...]}
 * </pre>
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
     * @param route the default route (node ids, both ends) of a message without an explicit path
     */
    public static String write(Schedule s, Counts counts, RouteFunction route) {
        JsonWriter json = new JsonWriter().beginObject()
                .name("op").value(s.collective().label())
                .name("algorithm").value(s.algorithm())
                .name("ranks").value(s.ranks())
                .name("bytes").value(s.messageBytes())
                .name("steps").value(counts.steps())
                .name("transmitted").value(counts.transmitted())
                .name("rearranged").value(counts.rearranged());
        if (!s.note().isEmpty()) {
            json.name("note").value(s.note());
        }
        json.name("messages").beginArray();
        for (int[] m : sendsInStepOrder(s)) {
            Instruction in = s.program(m[0]).get(m[1]);
            json.beginObject()
                    .name("src").value(m[0])
                    .name("dst").value(in.peer())
                    .name("step").value(in.step())
                    .name("blocks").beginArray();
            writeBlocks(json, in.blocks());
            json.endArray().name("path").beginArray();
            for (int node : in.hasPath() ? in.path() : route.route(m[0], in.peer())) {
                json.value(node);
            }
            json.endArray().endObject();
        }
        return json.endArray().endObject().toString();
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

    private static void writeBlocks(JsonWriter json, List<Block> blocks) {
        if (blocks instanceof PairBlocks pairs) { // no Pair objects for the big ones
            for (int p = 0; p < pairs.productCount(); p++) {
                for (int o : pairs.origins(p)) {
                    for (int d : pairs.destinations(p)) {
                        if (o != d) {
                            json.beginArray().value(o).value(d).endArray();
                        }
                    }
                }
            }
            return;
        }
        for (Block b : blocks) {
            Block.Pair pair = (Block.Pair) b;
            json.beginArray().value(pair.origin()).value(pair.destination()).endArray();
        }
    }
}
