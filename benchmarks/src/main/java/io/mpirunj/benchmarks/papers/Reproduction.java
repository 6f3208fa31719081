package io.mpirunj.benchmarks.papers;

/**
 * One thing a paper states that we reproduce: a table, a worked example, a figure's shape.
 * Implementations are stateless; {@link #run} computes everything from the schedules and models
 * (no randomness without a fixed seed; wall-clock timings only in {@link Check#info} rows), so
 * every verdict is the same on every machine. Register a new one by adding it to {@link Reproductions#all()}.
 */
public interface Reproduction {

    /** Stable, file-name-safe id, e.g. {@code "000-table1"}; prefixes the figure files. */
    String id();

    Paper paper();

    /** Short heading, e.g. "Table 1: OPT-tree t[i] and j_i". */
    String title();

    /** What is reproduced and how, in a sentence or two. */
    String description();

    /**
     * Computes the rows and pictures. A thrown exception is reported as a failed reproduction
     * (counted as one failure) and does not stop the other reproductions.
     */
    ReproductionResult run(RunOptions options) throws Exception;
}
