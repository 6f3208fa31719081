package io.mpirunj.collectives.sim;

import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.Contention;
import io.mpirunj.fabric.topology.Topology;

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
        Schedule s = simulation.schedule();
        JsonWriter json = new JsonWriter().beginObject()
                .name("op").value(s.collective().label())
                .name("algorithm").value(s.algorithm())
                .name("ranks").value(s.ranks())
                .name("root").value(s.root())
                .name("bytes").value(s.messageBytes())
                .name("model").value(simulation.model())
                .name("evaluation").value(simulation.evaluation().name().toLowerCase(java.util.Locale.ROOT))
                .name("completion").value(simulation.completion());
        if (!s.note().isEmpty()) {
            json.name("note").value(s.note());
        }
        if (fabric != null) {
            int steps = 0;
            for (Message m : simulation.messages()) {
                steps = Math.max(steps, m.step());
            }
            json.name("steps").value(steps).name("nodes").beginArray();
            for (int node = 0; node < fabric.nodes(); node++) {
                json.value(fabric.label(node));
            }
            json.endArray();
        }
        json.name("messages").beginArray();
        for (Message m : simulation.messages()) {
            json.beginObject()
                    .name("src").value(m.src())
                    .name("dst").value(m.dst())
                    .name("start").value(m.start())
                    .name("end").value(m.end())
                    .name("step").value(m.step());
            if (m.dropped()) {
                json.name("dropped").value(true);
            }
            if (!m.path().isEmpty()) {
                json.name("path").beginArray();
                for (int node : m.path()) {
                    json.value(node);
                }
                json.endArray().name("waited").value(m.waited());
            }
            json.endObject();
        }
        json.endArray();
        if (simulation.routed()) {
            json.name("contention").beginArray();
            for (Contention c : simulation.contentions()) {
                json.beginObject()
                        .name("message").value(c.message())
                        .name("blocker").value(c.blocker())
                        .name("channel").value(c.channel())
                        .name("from").value(c.from())
                        .name("until").value(c.until())
                        .endObject();
            }
            json.endArray();
        }
        return json.endObject().toString();
    }
}
