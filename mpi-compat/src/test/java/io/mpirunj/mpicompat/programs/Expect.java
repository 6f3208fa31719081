package io.mpirunj.mpicompat.programs;

/** Checks for the test programs: a wrong value ends the program with a message naming it. */
final class Expect {
    private Expect() {
    }

    static void equal(String what, long expected, long actual) {
        if (expected != actual) {
            throw new AssertionError(what + ": expected " + expected + " but got " + actual);
        }
    }

    static void equal(String what, double expected, double actual) {
        if (Double.compare(expected, actual) != 0) {
            throw new AssertionError(what + ": expected " + expected + " but got " + actual);
        }
    }

    static void isTrue(String what, boolean condition) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }
}
