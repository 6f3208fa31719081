package io.mpirunj.benchmarks.sweep;

import java.util.List;

/**
 * One mpirun-j job of a sweep: {@code mpirun-j -np NP [--threads] --coll COLL MAINCLASS ARGS}.
 *
 * @param coll the forced algorithm ({@code bcast=binomial}), or null for the default choice
 */
public record SweepJob(int np, boolean threads, String coll, String mainClass, List<String> args) {
    public SweepJob {
        args = List.copyOf(args);
    }
}
