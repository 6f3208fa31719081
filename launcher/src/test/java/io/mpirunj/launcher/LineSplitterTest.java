package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** How a rank's output is cut into lines: at '\n' only, an unfinished line held up to a bound. */
class LineSplitterTest {
    private final List<String> seen = new ArrayList<>();

    private LineSplitter splitter(int maxPending) {
        return new LineSplitter(StandardCharsets.UTF_8, maxPending, null, (b, off, len, endsLine) -> seen.add(
                new String(b, off, len, StandardCharsets.UTF_8) + (endsLine ? "|end" : "|more")));
    }

    private static void write(LineSplitter s, String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        s.write(b, 0, b.length);
    }

    /** Pieces as {@code text|end} or {@code text|more}. */
    @FunctionalInterface
    private interface InteractiveBody {
        void run(LineSplitter s, BlockingQueue<String> pieces) throws Exception;
    }

    /** Runs {@code body} with an interactive splitter (an idle scheduler of its own) whose pieces land in a queue. */
    private static void interactive(InteractiveBody body) throws Exception {
        BlockingQueue<String> pieces = new LinkedBlockingQueue<>();
        ScheduledExecutorService idle = Executors.newSingleThreadScheduledExecutor();
        try {
            body.run(new LineSplitter(StandardCharsets.UTF_8, idle, (b, off, len, endsLine) -> pieces.add(
                    new String(b, off, len, StandardCharsets.UTF_8) + (endsLine ? "|end" : "|more"))), pieces);
        } finally {
            idle.shutdownNow();
        }
    }

    /** A carriage return is text: a progress line and a CRLF arrive as written (they were cut into lines, CR lost). */
    @Test
    void onlyANewlineEndsALine() {
        LineSplitter s = splitter(LineSplitter.MAX_PENDING);
        write(s, "progress 10%\rprogress 50%\rprog");
        write(s, "ress 100%\ncrlf line\r\nlast");
        assertEquals(List.of("progress 10%\rprogress 50%\rprogress 100%|end", "crlf line\r|end"), seen);
        s.finish(true);
        assertEquals("last|end", seen.get(2));
        s.finish(true);
        assertEquals(3, seen.size(), "nothing held after the end");
    }

    /** Where no line end is to be added (binary output), an unfinished last line goes out as the piece it is. */
    @Test
    void anUnfinishedLastLineCanEndAsItIs() {
        LineSplitter s = splitter(LineSplitter.MAX_PENDING);
        write(s, "whole\nlast");
        s.finish(false);
        assertEquals(List.of("whole|end", "last|more"), seen);
        s.finish(false);
        assertEquals(2, seen.size(), "nothing held after the end");
    }

    /**
     * With an idle scheduler, an unfinished line that nothing is added to goes out as a piece (a prompt before a
     * read of stdin was held until the answer's newline), and its end follows as the rest of the line.
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aPromptGoesOutWhenNothingFollowsIt() throws Exception {
        interactive((s, pieces) -> {
            write(s, "done\nEnter n: ");
            assertEquals("done|end", pieces.take());
            assertEquals("Enter n: |more", pieces.take()); // no write follows: the scheduler sends it
            write(s, "42\n");
            assertEquals("42|end", pieces.take());
        });
    }

    /**
     * A line whose piece went out idle still ends with its newline when the stream ends without one (the shell's
     * prompt or the next rank's line was glued to it).
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aLineWhosePieceWentOutIdleStillEnds() throws Exception {
        interactive((s, pieces) -> {
            write(s, "result: 42");
            assertEquals("result: 42|more", pieces.take());
            s.finish(true);
            assertEquals("|end", pieces.take());
        });
    }

    /** Interactive, what comes up to a carriage return goes out at once: a progress bar moves as it is drawn. */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void interactivelyACarriageReturnSendsWhatCameBeforeIt() throws Exception {
        interactive((s, pieces) -> {
            write(s, "[#   ]\r[##  ]\r[####]\n");
            assertEquals(List.of("[#   ]\r|more", "[##  ]\r|more", "[####]|end"), List.of(pieces.take(), pieces.take(),
                    pieces.take()));
        });
    }

    /** A piece cut at the bound ends between characters: a character of several bytes is not broken in two. */
    @Test
    void theBoundCutsBetweenCharacters() {
        LineSplitter s = splitter(4);
        write(s, "abc\u00e9\u20ac!\n"); // 3 ASCII bytes, then 2 bytes, 3 bytes, 1 byte
        assertEquals(List.of("abc|more", "\u00e9|more", "\u20ac!|more", "|end"), seen);
        assertEquals(3, LineSplitter.utf8Boundary(new byte[] {'a', 'b', 'c', (byte) 0xE2, (byte) 0x82}));
        assertEquals(5, LineSplitter.utf8Boundary(new byte[] {'a', 'b', (byte) 0xE2, (byte) 0x82, (byte) 0xAC}));
    }

    /** A line longer than the bound goes on in pieces of the bound's size: the launcher's memory stays bounded. */
    @Test
    void aLongLineGoesOnInPiecesOfTheBound() {
        LineSplitter s = splitter(4);
        write(s, "abcdefghij\nxy");
        write(s, "z");
        write(s, "w\n");
        assertEquals(List.of("abcd|more", "efgh|more", "ij|end", "xyzw|more", "|end"), seen);
    }
}
