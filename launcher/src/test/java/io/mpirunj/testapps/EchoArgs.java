package io.mpirunj.testapps;

import io.mpirunj.Comm;
import io.mpirunj.Mpi;

/** Prints {@code rank R args a|b|c} so tests can check that arguments arrive untouched. */
public final class EchoArgs {
    private EchoArgs() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        System.out.println("rank " + world.rank() + " args " + String.join("|", args));
        Mpi.finish();
    }
}
