package io.mpirunj.benchmarks.sweep;

/** Runs one job of a sweep and returns its standard output (the OSU table). */
@FunctionalInterface
public interface JobRunner {
    /**
     * @throws Exception if the job cannot run or ends with a non-zero status; the message says why
     */
    String run(SweepJob job) throws Exception;
}
