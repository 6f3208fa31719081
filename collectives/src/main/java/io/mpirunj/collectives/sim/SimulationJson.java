package io.mpirunj.collectives.sim;

import io.mpirunj.collectives.schedule.Schedule;

/**
 * Exports a schedule and its simulation as one JSON object:
 *
 * <pre>
 * {"op":"multicast","algorithm":"opt-tree","ranks":7,"root":0,"bytes":0,
 *  "model":"hold=10,end=40","evaluation":"event","completion":80,
 *  "messages":[{"src":0,"dst":3,"start":0,"end":40,"step":1}, ...]}
 * </pre>
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
            json.endObject();
        }
        return json.endArray().endObject().toString();
    }
}
