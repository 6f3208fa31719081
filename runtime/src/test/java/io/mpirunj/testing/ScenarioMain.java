package io.mpirunj.testing;

import io.mpirunj.Comm;
import io.mpirunj.Mpi;

/** {@code ScenarioMain NAME}: runs one {@link P2pScenarios} scenario on this rank (for process-mode tests). */
public final class ScenarioMain {
    private ScenarioMain() {
    }

    public static void main(String[] args) throws Exception {
        Comm world = Mpi.init(args);
        P2pScenarios.run(args[0], world);
        System.out.println("rank " + world.rank() + " passed " + args[0]);
        Mpi.finish();
    }
}
