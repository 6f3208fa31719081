package io.mpirunj.launcher;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Collectors;

/**
 * The user's classpath: parsing ({@code java -cp} syntax, including {@code dir/*} for every jar in a
 * directory), validation, and the check that the main class exists and has a
 * {@code public static void main(String[])}. All checks happen in the launcher, before any rank starts.
 */
final class UserClasspath {
    private UserClasspath() {
    }

    /**
     * Splits {@code spec} on the platform path separator, expands wildcards and checks that every
     * entry exists and is readable.
     *
     * @throws UsageException naming the first bad entry
     */
    static List<Path> parse(String spec) throws UsageException {
        List<Path> out = new ArrayList<>();
        for (String raw : spec.split(File.pathSeparator, -1)) {
            String entry = raw.trim();
            if (entry.isEmpty()) {
                continue;
            }
            if (entry.equals("*") || entry.endsWith(File.separator + "*") || entry.endsWith("/*")) {
                Path dir = toPath(entry.substring(0, entry.length() - 1).isEmpty() ? "." : entry.substring(0,
                        entry.length() - 1));
                requireReadable(dir, entry);
                try (DirectoryStream<Path> jars = Files.newDirectoryStream(dir)) {
                    List<Path> found = new ArrayList<>();
                    for (Path p : jars) {
                        String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
                        if ((n.endsWith(".jar")) && Files.isRegularFile(p)) {
                            found.add(p.toAbsolutePath().normalize());
                        }
                    }
                    found.sort(null);
                    out.addAll(found);
                } catch (IOException e) {
                    throw new UsageException("classpath entry '" + entry + "' cannot be listed: " + e.getMessage());
                }
                continue;
            }
            Path p = toPath(entry);
            requireReadable(p, entry);
            out.add(p.toAbsolutePath().normalize());
        }
        return out;
    }

    private static Path toPath(String entry) throws UsageException {
        try {
            return Path.of(entry);
        } catch (InvalidPathException e) {
            throw new UsageException("classpath entry '" + entry + "' is not a valid path: " + e.getReason());
        }
    }

    private static void requireReadable(Path p, String entry) throws UsageException {
        if (!Files.exists(p)) {
            throw new UsageException("classpath entry '" + entry + "' does not exist");
        }
        if (!Files.isReadable(p)) {
            throw new UsageException("classpath entry '" + entry + "' is not readable");
        }
    }

    /**
     * The {@code Main-Class} of {@code jar}'s manifest (for {@code -jar}).
     *
     * @throws UsageException if it is not a readable jar or names no main class
     */
    static String mainClassOfJar(Path jar) throws UsageException {
        if (!Files.isRegularFile(jar)) {
            throw new UsageException("-jar " + jar + " is not a file");
        }
        try (JarFile f = new JarFile(jar.toFile())) {
            Manifest m = f.getManifest();
            String main = m == null ? null : m.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
            if (main == null || main.isBlank()) {
                throw new UsageException("-jar " + jar + ": no Main-Class in its manifest");
            }
            return main.trim();
        } catch (IOException e) {
            throw new UsageException("-jar " + jar + " cannot be read as a jar: " + e.getMessage());
        }
    }

    /** The entries as URLs for a class loader. */
    static URL[] urls(List<Path> classpath) {
        URL[] urls = new URL[classpath.size()];
        for (int i = 0; i < urls.length; i++) {
            try {
                urls[i] = classpath.get(i).toUri().toURL();
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException("classpath entry " + classpath.get(i), e);
            }
        }
        return urls;
    }

    /** The entries joined with the platform path separator. */
    static String join(List<Path> classpath) {
        return classpath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
    }

    /**
     * Checks, without initialising it, that {@code mainClass} can be loaded from {@code classpath}
     * (over the launcher's own classes) and declares {@code public static void main(String[])}.
     *
     * @throws UsageException saying what is missing
     */
    static void checkMainClass(String mainClass, List<Path> classpath, ClassLoader parent) throws UsageException {
        try (RankClassLoader loader = new RankClassLoader(urls(classpath), parent)) {
            Class<?> c;
            try {
                c = Class.forName(mainClass, false, loader);
            } catch (ClassNotFoundException e) {
                throw new UsageException("main class " + mainClass + " not found on the classpath ("
                        + (classpath.isEmpty() ? "empty" : join(classpath)) + ")" + hint(mainClass, classpath, loader));
            } catch (LinkageError e) {
                throw new UsageException("main class " + mainClass + " cannot be loaded: " + e);
            }
            Method main;
            try {
                main = c.getDeclaredMethod("main", String[].class);
            } catch (NoSuchMethodException e) {
                throw new UsageException("main class " + mainClass
                        + " has no method public static void main(String[])");
            } catch (LinkageError e) {
                throw new UsageException("main class " + mainClass + " cannot be loaded: " + e);
            }
            int m = main.getModifiers();
            if (!Modifier.isPublic(m) || !Modifier.isStatic(m) || main.getReturnType() != void.class) {
                throw new UsageException("main class " + mainClass
                        + ": main must be declared public static void main(String[])");
            }
        } catch (IOException e) {
            // closing the loader failed: nothing to report to the user
        }
    }

    /**
     * What the user likely meant by a main class that is not there: a class file's name ({@code Ring.class}), a
     * {@code java} command line, or a class of that simple name elsewhere on the classpath; "" when nothing fits.
     */
    private static String hint(String mainClass, List<Path> classpath, ClassLoader loader) {
        if (mainClass.endsWith(".class")) {
            return "; a class is named without .class: did you mean "
                    + mainClass.substring(0, mainClass.length() - ".class".length()).replace('/', '.') + "?";
        }
        if (mainClass.equals("java")) {
            return "; mpirun-j starts the JVMs itself: give the main class and its options, not a java command "
                    + "(e.g. mpirun-j -np 2 -cp . Main)";
        }
        List<String> alike = sameSimpleName(mainClass, classpath, loader);
        return alike.isEmpty() ? "" : alike.size() == 1 ? "; did you mean " + alike.get(0) + "?"
                : "; did you mean one of: " + String.join(", ", alike) + "?";
    }

    /** How many files of a classpath directory are looked at for {@link #sameSimpleName} (the error path only). */
    private static final int FILES_SEARCHED = 20_000;

    /**
     * Up to three classes of {@code classpath} (its jars, and directories as package roots) that {@code loader} loads
     * and whose simple name is {@code mainClass}'s: the main class named without its package ({@code Hello} for
     * {@code io.mpirunj.examples.Hello}) or with a wrong one.
     */
    static List<String> sameSimpleName(String mainClass, List<Path> classpath, ClassLoader loader) {
        String file = mainClass.substring(mainClass.lastIndexOf('.') + 1) + ".class";
        java.util.Set<String> found = new java.util.TreeSet<>();
        for (Path entry : classpath) {
            if (Files.isDirectory(entry)) {
                try (java.util.stream.Stream<Path> walk = Files.walk(entry)) {
                    walk.limit(FILES_SEARCHED).filter(f -> f.getFileName() != null
                            && f.getFileName().toString().equals(file)).forEach(f -> found.add(
                                    className(entry.relativize(f).toString().replace(File.separatorChar, '/'))));
                } catch (IOException | java.io.UncheckedIOException e) {
                    // an unreadable directory: no suggestion from it
                }
            } else if (Files.isRegularFile(entry)) {
                try (JarFile jar = new JarFile(entry.toFile())) {
                    jar.stream().map(java.util.zip.ZipEntry::getName)
                            .filter(n -> (n.equals(file) || n.endsWith("/" + file)) && !n.startsWith("META-INF/"))
                            .forEach(n -> found.add(className(n)));
                } catch (IOException e) {
                    // not a jar: no suggestion from it
                }
            }
        }
        found.remove(mainClass);
        return found.stream().filter(name -> loads(name, loader)).limit(3).toList();
    }

    /** {@code a/b/C.class} as {@code a.b.C}. */
    private static String className(String classFile) {
        return classFile.substring(0, classFile.length() - ".class".length()).replace('/', '.');
    }

    /** True if {@code name} is a class {@code loader} loads (a directory below a package root names none). */
    private static boolean loads(String name, ClassLoader loader) {
        try {
            Class.forName(name, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /**
     * Finds {@code public static void main(String[])} of a loaded class, made callable even when the
     * class itself is not public (as the {@code java} launcher allows).
     */
    static Method mainMethod(Class<?> c) throws NoSuchMethodException {
        Method main = c.getDeclaredMethod("main", String[].class);
        int m = main.getModifiers();
        if (!Modifier.isPublic(m) || !Modifier.isStatic(m)) {
            throw new NoSuchMethodException(c.getName() + ".main(String[]) is not public static");
        }
        main.setAccessible(true);
        return main;
    }
}
