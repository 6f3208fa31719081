package io.mpirunj.benchmarks.sweep;

import java.io.PrintStream;

/**
 * A one-line progress bar, redrawn in place with carriage returns:
 * {@code [##########..........]  4/8  bcast=chain np=4}. Use {@link #onTerminal} to get one only when
 * stderr is a terminal.
 */
public final class ProgressBar implements Progress {
    private static final int WIDTH = 30;

    private final PrintStream out;
    private int total;
    private int done;
    private int lastLength;

    public ProgressBar(PrintStream out) {
        this.out = out;
    }

    /** A bar on stderr when this JVM has a terminal ({@code System.console() != null}), else {@link Progress#none()}. */
    public static Progress onTerminal() {
        return System.console() != null ? new ProgressBar(System.err) : Progress.none();
    }

    @Override
    public void start(int jobs) {
        total = jobs;
        done = 0;
    }

    @Override
    public void step(String label) {
        draw(label);
        done++;
    }

    @Override
    public void done() {
        draw("done");
        out.println();
        out.flush();
    }

    /** The bar's text for {@code done} of {@code total} jobs. */
    static String render(int done, int total, String label) {
        int filled = total == 0 ? WIDTH : (int) ((long) WIDTH * done / total);
        String digits = String.valueOf(total);
        return "[" + "#".repeat(filled) + ".".repeat(WIDTH - filled) + "] "
                + String.format("%" + digits.length() + "d/%s", done, digits) + "  " + label;
    }

    private void draw(String label) {
        String line = render(done, total, label);
        out.print("\r" + line + " ".repeat(Math.max(0, lastLength - line.length())));
        out.flush();
        lastLength = line.length();
    }
}
