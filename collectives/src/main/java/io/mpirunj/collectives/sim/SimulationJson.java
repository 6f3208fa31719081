package io.mpirunj.collectives.sim;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.collectives.schedule.ScheduleJson;
import io.mpirunj.fabric.model.Contention;
import io.mpirunj.fabric.model.Numbers;
import io.mpirunj.fabric.topology.Topology;
import java.math.BigDecimal;

/**
 * Exports a schedule and its simulation as one JSON object:
 *
 * <pre>
 * {"op":"multicast","algorithm":"opt-tree","ranks":7,"root":0,"bytes":0,
 *  "model":"hold=10,end=40","evaluation":"event","completion":80,
 *  "messages":[{"src":0,"dst":3,"start":0,"end":40,"step":1}, ...]}
 * </pre>
 *
 * On a fabric network each message also carries {@code "path":[node ids]} (network nodes,
 * both ends included) and {@code "waited"} (time spent waiting for busy channels), and the
 * object ends with {@code "contention":[{"message":3,"blocker":1,"channel":"3/2->2/2",
 * "from":..,"until":..}, ...]} (message ids index the messages array; empty when none).
 *
 * Times are model time units. Numbers that are integral print without a fraction ({@code 130});
 * others as plain decimals ({@code 130.5}). Messages are in the order their sends started; a
 * copy dropped by a RECV_FIRST_OF carries {@code "dropped":true}. {@code note} appears when the
 * builder left one (e.g. a fallback).
 */
public final class SimulationJson {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);

    private SimulationJson() {
    }

    public static String write(Simulation simulation) {
        return write(simulation, null);
    }

    /**
     * As {@link #write(Simulation)}; with a {@code fabric}, the object also carries
     * {@code "steps"} (the largest message step) and {@code "nodes"}: the address of every fabric
     * node id, e.g. {@code ["1234","1243",...]} on a star graph, so that paths can be read.
     */
    public static String write(Simulation simulation, Topology fabric) {
        return text(tree(simulation, fabric), simulation);
    }

    /**
     * The simulation with the schedule's programs added ({@link ScheduleJson#addPrograms}): what
     * {@code mpirun-j schedule --json} prints, and what {@link ScheduleJson#read} reads back.
     */
    public static String writeWithPrograms(Simulation simulation) {
        return writeWithPrograms(simulation, null);
    }

    /** {@link #writeWithPrograms(Simulation)} with the fabric's steps and node addresses ({@link #write(Simulation, Topology)}). */
    public static String writeWithPrograms(Simulation simulation, Topology fabric) {
        ObjectNode json = tree(simulation, fabric);
        ScheduleJson.addPrograms(json, simulation.schedule());
        return text(json, simulation);
    }

    private static String text(ObjectNode json, Simulation simulation) {
        try {
            return MAPPER.writeValueAsString(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the simulation of " + simulation.schedule(), e);
        }
    }

    private static ObjectNode tree(Simulation simulation, Topology fabric) {
        Schedule s = simulation.schedule();
        ObjectNode json = MAPPER.createObjectNode();
        ScheduleJson.addName(json, s);
        json.put("model", simulation.model());
        json.put("evaluation", simulation.evaluation().name().toLowerCase(java.util.Locale.ROOT));
        json.set("completion", number(simulation.completion()));
        if (!s.note().isEmpty()) {
            json.put("note", s.note());
        }
        if (fabric != null) {
            int steps = 0;
            for (Message m : simulation.messages()) {
                steps = Math.max(steps, m.step());
            }
            json.put("steps", steps);
            ArrayNode nodes = json.putArray("nodes");
            for (int node = 0; node < fabric.nodes(); node++) {
                nodes.add(fabric.label(node));
            }
        }
        ArrayNode messages = json.putArray("messages");
        for (Message m : simulation.messages()) {
            ObjectNode o = messages.addObject();
            o.put("src", m.src());
            o.put("dst", m.dst());
            o.set("start", number(m.start()));
            o.set("end", number(m.end()));
            o.put("step", m.step());
            if (m.dropped()) {
                o.put("dropped", true);
            }
            if (!m.path().isEmpty()) {
                ArrayNode path = o.putArray("path");
                for (int node : m.path()) {
                    path.add(node);
                }
                o.set("waited", number(m.waited()));
            }
        }
        if (simulation.routed()) {
            ArrayNode contention = json.putArray("contention");
            for (Contention c : simulation.contentions()) {
                ObjectNode o = contention.addObject();
                o.put("message", c.message());
                o.put("blocker", c.blocker());
                o.put("channel", c.channel());
                o.set("from", number(c.from()));
                o.set("until", number(c.until()));
            }
        }
        return json;
    }

    /** Model times as {@link Numbers#format} writes them: integral values without a fraction. */
    private static JsonNode number(double value) {
        return DecimalNode.valueOf(new BigDecimal(Numbers.format(value)));
    }
}
