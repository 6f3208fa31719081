package io.mpirunj.collectives.baseline;

import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/**
 * A baseline declared by its data, as SimGrid's table of {name, description, function}: its name, its line for
 * {@code --list-algorithms}, its priority (an operation's default is its registered algorithm of highest
 * priority) and the builder of its schedule. The operation's base class ({@link ScheduledAlltoall},
 * {@link ScheduledAllreduce}, {@link ScheduledBarrier}) says what a builder is and runs its schedules; an
 * algorithm's own class is its javadoc and one constructor call.
 *
 * @param <B> the operation's builder type
 */
abstract class DeclaredBaseline<B> implements CollectiveAlgorithm, SimulatedBaseline {
    private final String name;
    private final String description;
    private final int priority;
    /** Builds this algorithm's schedule. */
    final B builder;

    DeclaredBaseline(String name, String description, int priority, B builder) {
        this.name = name;
        this.description = description;
        this.priority = priority;
        this.builder = builder;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String description() {
        return description;
    }

    @Override
    public final int priority() {
        return priority;
    }
}
