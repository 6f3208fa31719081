package io.mpirunj.testapps;

/** A class without a main method. */
public final class NoMain {
    private NoMain() {
    }

    public static void run(String[] args) {
    }
}
