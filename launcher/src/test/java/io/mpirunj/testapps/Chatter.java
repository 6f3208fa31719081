package io.mpirunj.testapps;

/** Prints {@code line N} for ever (no MPI): only the launcher can end it. */
public final class Chatter {
    private Chatter() {
    }

    public static void main(String[] args) {
        for (long i = 0; ; i++) {
            System.out.println("line " + i);
        }
    }
}
