package io.mpirunj.launcher.tools;

/**
 * Bad input to a tool command, found before anything was computed: printed as one line on stderr
 * ({@code mpirun-j <command>: <message>}) with exit status {@link Tools#USAGE}.
 */
final class BadInput extends Exception {

    BadInput(String message) {
        super(oneLine(message));
    }

    /** The first line of {@code message}: library messages are one line, but never print more. */
    static String oneLine(String message) {
        return String.valueOf(message).split("\\R", 2)[0];
    }
}
