package io.mpirunj.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Best-effort clean-up of the launcher's own files (compiled sources, cache entries). */
final class FileTrees {
    private FileTrees() {
    }

    /**
     * Deletes {@code path} (a file, or a directory with everything below it) as far as it can; a leftover
     * is harmless where this is used, so failures are ignored. Nothing happens for null or a missing path.
     */
    static void deleteQuietly(Path path) {
        if (path == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(path)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // a file another process holds or removed: keep going
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // missing, or unreadable below: nothing more to do
        }
    }
}
