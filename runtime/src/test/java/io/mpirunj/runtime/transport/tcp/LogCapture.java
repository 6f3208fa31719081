package io.mpirunj.runtime.transport.tcp;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Copies what is written to System.err (where slf4j-simple logs) while open, so a test can assert
 * that a reason was logged. Log lines come from event-loop threads, hence {@link #await}.
 */
final class LogCapture implements AutoCloseable {
    private final PrintStream original = System.err;
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

    LogCapture() {
        OutputStream tee = new OutputStream() {
            @Override
            public void write(int b) {
                synchronized (captured) {
                    captured.write(b);
                    captured.notifyAll(); // await
                }
                original.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                synchronized (captured) {
                    captured.write(b, off, len);
                    captured.notifyAll(); // await
                }
                original.write(b, off, len);
            }
        };
        System.setErr(new PrintStream(tee, true, StandardCharsets.UTF_8));
    }

    String text() {
        synchronized (captured) {
            return captured.toString(StandardCharsets.UTF_8);
        }
    }

    /** Waits up to 10 s for a line containing every one of {@code parts}; returns it. Woken by each write. */
    String await(String... parts) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        synchronized (captured) {
            while (true) {
                for (String line : text().split("\n")) {
                    boolean all = true;
                    for (String p : parts) {
                        all &= line.contains(p);
                    }
                    if (all) {
                        return line;
                    }
                }
                long leftMs = (deadline - System.nanoTime()) / 1_000_000;
                if (leftMs <= 0) {
                    throw new AssertionError("no log line containing " + String.join(" & ", parts) + " in:\n" + text());
                }
                captured.wait(leftMs);
            }
        }
    }

    @Override
    public void close() {
        System.setErr(original);
    }
}
