package io.mpirunj.testing;

import io.mpirunj.Comm;
import io.mpirunj.Mpi;

/**
 * {@code ScenarioMain NAME...}: runs the named {@link P2pScenarios} scenarios in order on this rank (for
 * process-mode tests), each after a barrier so that none starts while a rank is still in the one before.
 * One job for several scenarios costs one JVM start-up per rank instead of one per rank and scenario.
 */
public final class ScenarioMain {
    private ScenarioMain() {
    }

    public static void main(String[] args) throws Exception {
        Comm world = Mpi.init(args);
        for (String name : args) {
            world.barrier();
            P2pScenarios.run(name, world);
            System.out.println("rank " + world.rank() + " passed " + name);
        }
        Mpi.finish();
    }
}
