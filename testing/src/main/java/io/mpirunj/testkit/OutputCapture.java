package io.mpirunj.testkit;

import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A writer that captures a job's output (for example the launcher's stdout, given to picocli) and lets a
 * test wait until it holds enough matching text: every write wakes the waiters, so a test waits for the
 * output it needs instead of sleeping between looks.
 */
public final class OutputCapture extends StringWriter {
    /**
     * Waits until the captured text matches {@code pattern} at least {@code count} times and returns the
     * matches. Gives up, with an {@link AssertionError} built by {@code failure}, when {@code ended} says
     * the writing side is done (call {@link #wake()} when it ends) or after {@code timeoutMs}.
     *
     * @param pattern  what to look for
     * @param count    how many matches are needed
     * @param timeoutMs the longest wait
     * @param ended    true once no more output can come
     * @param failure  the message of the error thrown on giving up, given whether the writer had ended
     * @return the matches found, at least {@code count}
     * @throws InterruptedException if interrupted while waiting
     */
    public List<MatchResult> await(Pattern pattern, int count, long timeoutMs, BooleanSupplier ended,
            java.util.function.Function<Boolean, String> failure) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        synchronized (this) {
            while (true) {
                List<MatchResult> found = new ArrayList<>();
                Matcher m = pattern.matcher(toString());
                while (m.find()) {
                    found.add(m.toMatchResult());
                }
                if (found.size() >= count) {
                    return found;
                }
                long leftNs = deadline - System.nanoTime();
                boolean over = ended.getAsBoolean();
                if (over || leftNs <= 0) {
                    throw new AssertionError(failure.apply(over));
                }
                TimeUnit.NANOSECONDS.timedWait(this, leftNs);
            }
        }
    }

    /** Wakes the waiters, for example when the writing side has ended. */
    public synchronized void wake() {
        notifyAll();
    }

    @Override
    public void write(int c) {
        super.write(c);
        wake();
    }

    @Override
    public void write(char[] cbuf, int off, int len) {
        super.write(cbuf, off, len);
        wake();
    }

    @Override
    public void write(String str) {
        super.write(str);
        wake();
    }

    @Override
    public void write(String str, int off, int len) {
        super.write(str, off, len);
        wake();
    }
}
