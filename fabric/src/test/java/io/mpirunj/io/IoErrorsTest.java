package io.mpirunj.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IoErrorsTest {
    @TempDir
    Path dir;

    @Test
    void missingDirectoryNamesTheFileAndSaysWhy() {
        Path target = dir.resolve("missing").resolve("x.png");
        IOException e = assertThrows(IOException.class, () -> Files.writeString(target, "x"));
        assertEquals(target + ": no such file or directory", IoErrors.reason(e));
        assertEquals("no such file or directory", IoErrors.reason(e, target), "the message names it already");
        assertEquals(target + ": no such file or directory", IoErrors.reason(e, dir));
    }

    @Test
    void notADirectoryIsTheSystemsOwnReason() throws IOException {
        Path file = Files.writeString(dir.resolve("plain"), "x");
        IOException e = assertThrows(IOException.class, () -> Files.writeString(file.resolve("x.png"), "x"));
        assertEquals(file.resolve("x.png") + ": Not a directory", IoErrors.reason(e));
    }

    @Test
    void plainIoExceptionKeepsItsFirstLine() {
        assertEquals("broken pipe", IoErrors.reason(new IOException("broken pipe\nat somewhere")));
        assertEquals("IOException", IoErrors.reason(new IOException()));
        assertEquals("a -> b: busy", IoErrors.reason(new FileSystemException("a", "b", "busy")));
    }
}
