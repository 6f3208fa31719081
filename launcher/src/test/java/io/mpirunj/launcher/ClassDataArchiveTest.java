package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ranks' unpacked native libraries: what is unpacked, and the {@code java.library.path} that finds them. */
class ClassDataArchiveTest {
    private static final Path DIR = Path.of("/cache/ranks-0123.native");

    @Test
    void libraryPathKeepsWhatTheRankJvmWouldChooseAndAddsTheDirectoryLast() {
        // the launcher's JVM: its LD_LIBRARY_PATH in front of the JDK's defaults
        assertEquals("/opt/x:/usr/java/packages/lib:/usr/lib:" + DIR,
                ClassDataArchive.libraryPath("/launcher/ld:/usr/java/packages/lib:/usr/lib", "/launcher/ld", "/opt/x",
                        DIR));
        // the ranks without LD_LIBRARY_PATH (e.g. -x unset it): the defaults alone
        assertEquals("/usr/java/packages/lib:/usr/lib:" + DIR,
                ClassDataArchive.libraryPath("/launcher/ld:/usr/java/packages/lib:/usr/lib", "/launcher/ld", null,
                        DIR));
        // neither has one
        assertEquals("/usr/java/packages/lib:/usr/lib:" + DIR,
                ClassDataArchive.libraryPath("/usr/java/packages/lib:/usr/lib", null, null, DIR));
        // an empty LD_LIBRARY_PATH is kept as the JVM keeps it (an empty first entry)
        assertEquals(":/usr/lib:" + DIR, ClassDataArchive.libraryPath(":/usr/lib", "", "", DIR));
    }

    @Test
    void unpacksTheJarsNativeLibrariesOnly(@TempDir Path tmp) throws IOException {
        Path jar = tmp.resolve("netty-native.jar");
        byte[] lib = {0x7f, 'E', 'L', 'F', 1, 2, 3};
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            put(out, "META-INF/native/libnetty_transport_native_epoll_x86_64.so", lib);
            put(out, "META-INF/native/include/header.h", new byte[] {1});
            put(out, "META-INF/native/readme.txt", new byte[] {2});
            put(out, "io/netty/Some.class", new byte[] {3});
        }
        Path dir = Files.createDirectory(tmp.resolve("native"));
        assertEquals(1, ClassDataArchive.unpackNative(jar, dir));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of("libnetty_transport_native_epoll_x86_64.so"),
                    files.map(p -> p.getFileName().toString()).collect(Collectors.toList()));
        }
        assertArrayEquals(lib, Files.readAllBytes(dir.resolve("libnetty_transport_native_epoll_x86_64.so")));
    }

    private static void put(JarOutputStream out, String name, byte[] bytes) throws IOException {
        out.putNextEntry(new JarEntry(name));
        OutputStream o = out;
        o.write(bytes);
        out.closeEntry();
    }
}
