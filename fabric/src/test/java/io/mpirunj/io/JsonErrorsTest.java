package io.mpirunj.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.mpirunj.fabric.model.ModelFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A JSON file's error in the file's own terms (a new user's trial got Jackson's classes and settings). */
class JsonErrorsTest {
    @TempDir
    Path dir;

    private String modelError(String json) throws Exception {
        Path file = dir.resolve("m.json");
        Files.writeString(file, json);
        String message = assertThrows(IllegalArgumentException.class, () -> ModelFile.read(file)).getMessage();
        return message.substring(("model file " + file + ": ").length());
    }

    @Test
    void aModelFileSaysWhichFieldIsWrongInItsOwnTerms() throws Exception {
        String head = "{\"format\": \"mpirunj-model/1\", ";
        assertEquals("not a model file (\"hold.b\" is missing (expected: a number); expected: mpirunj-model/1 JSON as "
                + "calibrate --out writes)", modelError(head + "\"hold\": {\"a\": 1}, \"end\": {\"a\": 1, \"b\": 0}}"));
        assertEquals("not a model file (unknown field \"extra\" (expected one of: end, format, hold, logp, ports, "
                + "sizes, source, tEnd, tHold, timeUnit); expected: mpirunj-model/1 JSON as calibrate --out writes)",
                modelError(head + "\"extra\": 1}"));
        assertEquals("not a model file (unknown field \"c\" in \"hold\" (expected one of: a, b, r2); expected: "
                + "mpirunj-model/1 JSON as calibrate --out writes)", modelError(head + "\"hold\": {\"a\": 1, \"b\": 2, \"c\": 1}}"));
        String truncated = modelError(head + "\"hold\": {\"a\": 1");
        assertEquals(true, truncated.startsWith("not a model file (at line 1, column "), truncated);
        assertEquals(false, truncated.contains("Source") || truncated.contains("REDACTED"), truncated);
        String text = modelError(head + "\"hold\": {\"a\": \"33\", \"b\": 0}, \"end\": {\"a\": 1, \"b\": 0}}");
        assertEquals(true, text.startsWith("not a model file (\"hold.a\" must be a number ("), text);
    }

    /** t_end = 0 for an empty message is refused in a file as in a spec (every time was 0, silently). */
    @Test
    void aModelFileWithAnEmptyMessageTakingNoTimeIsRefused() throws Exception {
        assertEquals("\"end\" a=0.0 gives an empty message t_end 0 (expected: a > 0: t_end, from the start of a send "
                + "to the end of its receive, is never 0)", modelError("{\"format\": \"mpirunj-model/1\", "
                + "\"hold\": {\"a\": 1, \"b\": 0}, \"end\": {\"a\": 0, \"b\": 0}}"));
    }
}
