package io.mpirunj.benchmarks.sweep;

import java.io.PrintStream;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A one-line progress bar (the progressbar library), redrawn in place:
 * {@code sweep  50% [=====     ] 4/8 (0:00:12 / 0:00:12) bcast=chain np=4}: jobs done, elapsed time and
 * estimate, and the job running now. Use {@link #onTerminal} to get one only when stderr is a terminal.
 */
public final class ProgressBar implements Progress {
    /** How often the bar (and its clock) is redrawn. */
    private static final int REDRAW_MILLIS = 500;

    private final PrintStream out;
    private me.tongfei.progressbar.ProgressBar bar;
    private Line line;
    private int started;

    public ProgressBar(PrintStream out) {
        this.out = out;
    }

    /** A bar on stderr when this JVM has a terminal ({@code System.console() != null}), else {@link Progress#none()}. */
    public static Progress onTerminal() {
        return System.console() != null ? new ProgressBar(System.err) : Progress.none();
    }

    @Override
    public void start(int jobs) {
        if (bar != null) {
            bar.close();
        }
        started = 0;
        line = new Line(out);
        bar = new ProgressBarBuilder().setTaskName("sweep").setInitialMax(jobs).setStyle(ProgressBarStyle.ASCII)
                .setConsumer(line).setUpdateIntervalMillis(REDRAW_MILLIS)
                .continuousUpdate().build();
    }

    @Override
    public void step(String label) {
        bar.stepTo(started++); // the jobs before this one are done
        bar.setExtraMessage(label);
    }

    @Override
    public void done() {
        bar.stepTo(bar.getMax());
        bar.setExtraMessage("done");
        bar.close(); // draws the last state and ends the line
        if (!line.closed) {
            line.close(); // 0.10.2 draws but does not end the line when closed before its first redraw
        }
        bar = null;
    }

    /** The library's console output, telling whether it ended its line. */
    private static final class Line extends ConsoleProgressBarConsumer {
        volatile boolean closed;

        Line(PrintStream out) {
            super(out);
        }

        @Override
        public void close() {
            closed = true;
            super.close();
        }
    }
}
