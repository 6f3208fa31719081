package io.mpirunj.collectives.sim;

import io.mpirunj.collectives.schedule.Schedule;
import io.mpirunj.fabric.model.Contention;
import java.util.List;

/** The result of evaluating one schedule on one model. Immutable. */
public final class Simulation {

    private final Schedule schedule;
    private final Evaluation evaluation;
    private final String model;
    private final double[] rankCompletion;
    private final List<Message> messages;
    private final List<Contention> contentions;

    Simulation(Schedule schedule, Evaluation evaluation, String model, double[] rankCompletion, List<Message> messages) {
        this(schedule, evaluation, model, rankCompletion, messages, List.of());
    }

    Simulation(Schedule schedule, Evaluation evaluation, String model, double[] rankCompletion, List<Message> messages,
               List<Contention> contentions) {
        this.schedule = schedule;
        this.evaluation = evaluation;
        this.model = model;
        this.rankCompletion = rankCompletion.clone();
        this.messages = List.copyOf(messages);
        this.contentions = List.copyOf(contentions);
    }

    public Schedule schedule() {
        return schedule;
    }

    public Evaluation evaluation() {
        return evaluation;
    }

    /** The model or network the schedule was evaluated on, as its spec. */
    public String model() {
        return model;
    }

    /** When the last rank holds all its data (0 when nobody has anything to receive). */
    public double completion() {
        double max = 0;
        for (double t : rankCompletion) {
            max = Math.max(max, t);
        }
        return max;
    }

    /** When {@code rank} holds all the data it must receive (0 for a rank that receives nothing). */
    public double rankCompletion(int rank) {
        return rankCompletion[rank];
    }

    /** Every message in the order its send started (ties: program order of the ranks). */
    public List<Message> messages() {
        return messages;
    }

    /**
     * Channel contention the network reported (fabric networks only; empty otherwise). Message
     * ids are indices into {@link #messages()}.
     */
    public List<Contention> contentions() {
        return contentions;
    }

    /** True when the network routed the messages (a fabric): messages carry paths. */
    public boolean routed() {
        return !messages.isEmpty() && !messages.get(0).path().isEmpty();
    }

    @Override
    public String toString() {
        return schedule + " on " + model + " (" + evaluation.name().toLowerCase(java.util.Locale.ROOT)
                + "): completion " + completion();
    }
}
