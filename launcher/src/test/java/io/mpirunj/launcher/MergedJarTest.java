package io.mpirunj.launcher;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ranks' merged classpath jar reads as the jars it was made from. */
class MergedJarTest {
    @TempDir
    Path tmp;

    @Test
    void firstJarWinsAndServiceFilesAreJoinedInClasspathOrder() throws IOException {
        Path a = jar("a.jar", null, Map.of(
                "p/Shared.txt", "from a",
                "p/OnlyA.txt", "a",
                "META-INF/services/x.Spi", "a.One\na.Two",
                "META-INF/io.netty.versions.properties", "netty-a.version=1\n",
                "META-INF/INDEX.LIST", "JarIndex-Version: 1.0\n\na.jar\np\n"));
        Path b = jar("b.jar", null, Map.of(
                "p/Shared.txt", "from b",
                "q/OnlyB.txt", "b",
                "META-INF/services/x.Spi", "b.Three\n",
                "META-INF/io.netty.versions.properties", "netty-b.version=2\n"));
        Path merged = tmp.resolve("merged.jar");
        assertNull(MergedJar.merge(List.of(a, b), merged));

        try (URLClassLoader separate = loader(a, b); URLClassLoader one = loader(merged)) {
            for (String name : List.of("p/Shared.txt", "p/OnlyA.txt", "q/OnlyB.txt", "META-INF/services/x.Spi")) {
                assertEquals(joined(separate, name), joined(one, name), name);
            }
            assertEquals("from a", read(one, "p/Shared.txt"));
            assertEquals("a.One\na.Two\nb.Three\n", read(one, "META-INF/services/x.Spi"));
            assertEquals("netty-a.version=1\nnetty-b.version=2\n", read(one, "META-INF/io.netty.versions.properties"));
        }
        try (JarFile jf = new JarFile(merged.toFile())) {
            assertNull(jf.getEntry("META-INF/INDEX.LIST"), "an index names the jars it came from");
            assertFalse(jf.isMultiRelease());
        }
    }

    @Test
    void multiReleaseIfAnyJarIs() throws IOException {
        Manifest mr = new Manifest();
        mr.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        mr.getMainAttributes().putValue("Multi-Release", "true");
        Path a = jar("a.jar", null, Map.of("p/A.txt", "a"));
        Path b = jar("b.jar", mr, Map.of("q/V.txt", "base", "META-INF/versions/11/q/V.txt", "eleven"));
        Path merged = tmp.resolve("merged.jar");
        assertNull(MergedJar.merge(List.of(a, b), merged));
        try (JarFile jf = new JarFile(merged.toFile(), true, java.util.zip.ZipFile.OPEN_READ, Runtime.version())) {
            assertTrue(jf.isMultiRelease());
            try (InputStream in = jf.getInputStream(jf.getEntry("q/V.txt"))) {
                assertEquals("eleven", new String(in.readAllBytes(), UTF_8));
            }
        }
    }

    @Test
    void jarsWithAClassPathOrASignatureAreNotMerged() throws IOException {
        Manifest withClassPath = new Manifest();
        withClassPath.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        withClassPath.getMainAttributes().put(Attributes.Name.CLASS_PATH, "other.jar");
        Path plain = jar("plain.jar", null, Map.of("p/A.txt", "a"));
        Path linked = jar("linked.jar", withClassPath, Map.of("q/B.txt", "b"));
        Path merged = tmp.resolve("merged.jar");
        assertNotNull(MergedJar.merge(List.of(plain, linked), merged));
        assertFalse(Files.exists(merged));
        Path signed = jar("signed.jar", null, Map.of("q/B.txt", "b", "META-INF/KEY.RSA", "sig"));
        assertTrue(MergedJar.merge(List.of(plain, signed), merged).contains("signed"));
    }

    private Path jar(String name, Manifest manifest, Map<String, String> entries) throws IOException {
        Path jar = tmp.resolve(name);
        List<String> names = new ArrayList<>(entries.keySet());
        Collections.sort(names);
        try (JarOutputStream out = manifest == null ? new JarOutputStream(Files.newOutputStream(jar))
                : new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            for (String n : names) {
                out.putNextEntry(new JarEntry(n));
                out.write(entries.get(n).getBytes(UTF_8));
                out.closeEntry();
            }
        }
        return jar;
    }

    private static URLClassLoader loader(Path... jars) throws IOException {
        URL[] urls = new URL[jars.length];
        for (int i = 0; i < jars.length; i++) {
            urls[i] = jars[i].toUri().toURL();
        }
        return new URLClassLoader(urls, null);
    }

    private static String read(ClassLoader loader, String name) throws IOException {
        try (InputStream in = loader.getResourceAsStream(name)) {
            return in == null ? null : new String(in.readAllBytes(), UTF_8);
        }
    }

    /** Every copy of {@code name} the loader finds, joined: what a reader of all copies (ServiceLoader) sees. */
    private static String joined(ClassLoader loader, String name) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (URL u : Collections.list(loader.getResources(name))) {
            try (InputStream in = u.openStream()) {
                String s = new String(in.readAllBytes(), UTF_8);
                sb.append(s.endsWith("\n") ? s : s + "\n");
            }
        }
        return name.startsWith("META-INF/services/") ? sb.toString() : read(loader, name);
    }
}
