package io.mpirunj.launcher;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * One jar that a JVM reads as it reads a classpath of several: the ranks run from it (made once per
 * class-data archive key, beside the archive). A rank opens every jar of its classpath at its start (its
 * program's main class and slf4j-simple's properties file are looked up past all of them), and each open
 * costs the same whatever the jar's size (the manifest read twice, the multi-release and index checks, the
 * URLs): one jar instead of two dozen saved ~30 ms of CPU per JVM in a probe.
 *
 * <p>What a classpath means is kept: the first jar that has an entry wins, as a class loader's lookup; the
 * files that libraries read from every jar ({@code META-INF/services/*}, Netty's
 * {@code META-INF/io.netty.versions.properties}) are joined in classpath order; the manifest is new
 * (multi-release if any jar was). Jar indexes and signature files are left out: they describe the jars they
 * came from. A jar whose manifest has a {@code Class-Path}, or that is signed, cannot be merged
 * ({@link #merge} refuses and the ranks keep the jars).
 */
final class MergedJar {
    private MergedJar() {
    }

    /** Why {@code jars} cannot be merged into one, or null if they can. */
    static String whyNot(List<Path> jars) throws IOException {
        for (Path jar : jars) {
            try (JarFile jf = new JarFile(jar.toFile(), false)) {
                Manifest m = jf.getManifest();
                if (m != null && m.getMainAttributes().getValue(Attributes.Name.CLASS_PATH) != null) {
                    return jar + " has a Class-Path";
                }
                for (Enumeration<JarEntry> e = jf.entries(); e.hasMoreElements();) {
                    if (isSignature(e.nextElement().getName())) {
                        return jar + " is signed";
                    }
                }
            }
        }
        return null;
    }

    /**
     * Writes {@code target}, holding what {@code jars} hold read in order (see the class comment).
     * Returns null, or why the jars cannot be merged (then nothing is written).
     */
    static String merge(List<Path> jars, Path target) throws IOException {
        String why = whyNot(jars);
        if (why != null) {
            return why;
        }
        Set<String> written = new HashSet<>();
        Map<String, ByteArrayOutputStream> joined = new LinkedHashMap<>();
        boolean multiRelease = false;
        List<JarFile> open = new ArrayList<>();
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(target))) {
            for (Path jar : jars) {
                JarFile jf = new JarFile(jar.toFile(), false);
                open.add(jf);
                Manifest m = jf.getManifest();
                multiRelease |= m != null && "true".equalsIgnoreCase(m.getMainAttributes().getValue("Multi-Release"));
            }
            Manifest manifest = new Manifest();
            manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
            manifest.getMainAttributes().putValue("Created-By", "mpirun-j (the rank classpath in one jar)");
            if (multiRelease) {
                manifest.getMainAttributes().putValue("Multi-Release", "true");
            }
            out.putNextEntry(new JarEntry("META-INF/"));
            out.closeEntry();
            out.putNextEntry(new JarEntry(JarFile.MANIFEST_NAME));
            manifest.write(out);
            out.closeEntry();
            written.add("META-INF/");
            written.add(JarFile.MANIFEST_NAME);
            for (JarFile jf : open) {
                for (Enumeration<JarEntry> e = jf.entries(); e.hasMoreElements();) {
                    JarEntry entry = e.nextElement();
                    String name = entry.getName();
                    if (isJoined(name)) {
                        ByteArrayOutputStream all = joined.computeIfAbsent(name, n -> new ByteArrayOutputStream());
                        try (InputStream in = jf.getInputStream(entry)) {
                            byte[] bytes = in.readAllBytes();
                            all.write(bytes);
                            if (bytes.length > 0 && bytes[bytes.length - 1] != '\n') {
                                all.write('\n');
                            }
                        }
                    } else if (!isLeftOut(name) && written.add(name)) {
                        JarEntry copy = new JarEntry(name);
                        copy.setTime(entry.getTime());
                        out.putNextEntry(copy);
                        if (!entry.isDirectory()) {
                            try (InputStream in = jf.getInputStream(entry)) {
                                in.transferTo(out);
                            }
                        }
                        out.closeEntry();
                    }
                }
            }
            for (Map.Entry<String, ByteArrayOutputStream> e : joined.entrySet()) {
                out.putNextEntry(new JarEntry(e.getKey()));
                OutputStream o = out;
                e.getValue().writeTo(o);
                out.closeEntry();
            }
        } finally {
            for (JarFile jf : open) {
                jf.close();
            }
        }
        return null;
    }

    /** Files that libraries read from every jar of the classpath: joined, in classpath order. */
    static boolean isJoined(String name) {
        return (name.startsWith("META-INF/services/") && !name.endsWith("/"))
                || name.equals("META-INF/io.netty.versions.properties");
    }

    /** Entries that describe the jar they are in: the manifest (a new one is written), indexes, signatures. */
    static boolean isLeftOut(String name) {
        return name.equalsIgnoreCase(JarFile.MANIFEST_NAME) || name.equalsIgnoreCase("META-INF/INDEX.LIST")
                || isSignature(name);
    }

    private static boolean isSignature(String name) {
        String upper = name.toUpperCase(Locale.ROOT);
        if (!upper.startsWith("META-INF/") || upper.indexOf('/', "META-INF/".length()) >= 0) {
            return false;
        }
        return upper.endsWith(".SF") || upper.endsWith(".RSA") || upper.endsWith(".DSA") || upper.endsWith(".EC")
                || upper.startsWith("META-INF/SIG-");
    }
}
