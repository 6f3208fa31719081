package io.mpirunj.benchmarks.papers;

import java.util.List;

/**
 * The one list of reproductions the papers report runs, in report order. To add one (the TTCC σ
 * curve, SEM start-up counts, star-graph step counts), write a {@link Reproduction} and add it
 * here.
 */
public final class Reproductions {

    private Reproductions() {
    }

    public static List<Reproduction> all() {
        return List.of(
                new OptTreeTable1(),
                new SevenNodeTrees(),
                new OptMeshExample(),
                new FibonacciEightNodes(),
                new CompletionVsGroupSize(),
                new MeshFigures11To14(),
                new TtccPredictionError(),
                new SemAlltoallCounts(),
                new StarBroadcastSteps());
    }
}
