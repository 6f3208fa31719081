package io.mpirunj.launcher.tools;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * A {@link PrintWriter} seen as an {@link OutputStream}: forwards whole UTF-8 lines to it (flushing
 * each), so progress written to a {@code PrintStream} on top shows up as it happens. A last
 * unterminated line is forwarded on {@link #close()}.
 */
public final class LineForwarder extends OutputStream {
    private final PrintWriter target;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    public LineForwarder(PrintWriter target) {
        this.target = target;
    }

    @Override
    public void write(int b) {
        if (b == '\n') {
            target.println(line.toString(StandardCharsets.UTF_8));
            target.flush();
            line.reset();
        } else if (b != '\r') {
            line.write(b);
        }
    }

    @Override
    public void close() {
        if (line.size() > 0) {
            write('\n');
        }
    }
}
