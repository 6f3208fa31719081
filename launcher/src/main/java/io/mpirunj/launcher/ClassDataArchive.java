package io.mpirunj.launcher;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The application class-data sharing (AppCDS) archive of the rank JVMs: the classes every rank
 * loads (the runtime, Netty, protobuf, the collectives), parsed, verified and laid out once, then
 * mapped by every rank JVM ({@code -XX:SharedArchiveFile}), which roughly halves a rank's start-up
 * CPU time.
 *
 * <p>The archive is a JDK dynamic archive over the launcher's classpath only, so one archive serves
 * every program: the ranks' classpath is the launcher's followed by the user's, and the JVM accepts
 * an archive whose classpath is a prefix of the one it runs with. It is made once, by a short
 * training JVM ({@link CdsTraining}: a two-rank job over TCP in one process, run with
 * {@code -XX:ArchiveClassesAtExit}), and kept in {@code $MPIRUNJ_CDS_DIR}, else
 * {@code $XDG_CACHE_HOME/mpirun-j}, else {@code ~/.cache/mpirun-j}, under a name keyed by the JDK
 * and the size and time of every classpath entry; a rebuilt jar means a new key.
 *
 * <p>It can never break a run: ranks use it with {@code -Xshare:auto}, so the JVM ignores an
 * archive that does not match (and its CDS messages are turned off); training happens only when
 * the launcher's classpath is all jars (the JDK cannot archive a classpath with a non-empty
 * directory, as in IDE and test runs) and this JVM runs with the JDK's base archive; a failed
 * training leaves a {@code .failed} marker so it is not retried for that key. {@code MPIRUNJ_CDS=off}
 * disables it. Making a new archive deletes those of other keys unused for a day.
 *
 * <p>Beside the archive, under the same key, the native libraries of the classpath's jars (Netty's
 * epoll transport, {@code META-INF/native/*.so}) are unpacked once into a directory that the ranks
 * get on {@code java.library.path}: Netty loads a library from there when it can, and otherwise
 * copies it out of its jar into a temporary file at every rank's start (a secure random for the file
 * name, the copy, the load and the deletion: ~12 of a rank's ~380 ms of start-up CPU).
 *
 * <p>Also beside it, made before the training: the classpath's jars merged into one ({@link MergedJar}), over
 * which the archive is made and from which the ranks run ({@link #rankClasspath}), since a rank opens every
 * jar of its classpath and each open costs alike. If the jars cannot be merged, the archive is made over them.
 *
 * @param archive         the archive file (it may not exist yet), or null when disabled
 * @param classpath       the launcher's classpath the archive is made over, or null when disabled
 * @param disabledBecause why there is no archive, or null when enabled
 */
record ClassDataArchive(Path archive, String classpath, String disabledBecause) {
    /** {@code off} disables the archive. */
    static final String ENABLE_ENV = "MPIRUNJ_CDS";
    /** Directory for archives (default: the user's cache directory). */
    static final String DIR_ENV = "MPIRUNJ_CDS_DIR";
    /** Forces this archive file for the ranks, without training (tests). */
    static final String FORCE_PROP = "mpirunj.cds.archive";
    /** Archives of other keys older than this are deleted when a new one is made. */
    static final long STALE_MS = TimeUnit.DAYS.toMillis(1);
    /** How long training may take before it is abandoned. */
    static final long TRAINING_TIMEOUT_MS = 60_000;
    /** Options that keep the JVM's CDS messages out of the ranks' output. */
    static final List<String> QUIET = List.of("-Xlog:cds=off", "-Xlog:cds+dynamic=off");
    /**
     * Options that map the archives at the address they were made for, as JDKs before 17.0.x's default
     * {@code ArchiveRelocationMode=1} did (a JVM that cannot still maps them elsewhere): relocating every
     * pointer of the JDK's and our archive cost a rank JVM ~20 of its ~55 ms to reach {@code main}
     * ({@code java -version} with the ranks' archive, 20 runs: 54-62 → 34 ms CPU). The launcher's script
     * passes the same to the launcher JVM.
     */
    static final List<String> MAP_AT_ARCHIVED_ADDRESS = List.of("-XX:+UnlockDiagnosticVMOptions",
            "-XX:ArchiveRelocationMode=0");
    /** Where Netty keeps the native libraries in its jars (it tries {@code java.library.path} first). */
    static final String NATIVE_PREFIX = "META-INF/native/";
    /** The environment variable the JVM puts in front of its default {@code java.library.path}. */
    static final String LD_LIBRARY_PATH = "LD_LIBRARY_PATH";

    /** The archive for rank JVMs whose classpath starts with {@code launcherClasspath}. */
    static ClassDataArchive forRanks(String launcherClasspath, Map<String, String> env) {
        String forced = System.getProperty(FORCE_PROP);
        if (forced != null && !forced.isBlank()) {
            return new ClassDataArchive(Path.of(forced), launcherClasspath, null);
        }
        String onOff = env.getOrDefault(ENABLE_ENV, "");
        if (onOff.equalsIgnoreCase("off") || onOff.equals("0") || onOff.equalsIgnoreCase("false")) {
            return disabled(ENABLE_ENV + "=" + onOff);
        }
        if (!System.getProperty("java.vm.info", "").contains("sharing")) {
            return disabled("this JVM runs without the JDK's class-data archive");
        }
        List<Path> entries = new ArrayList<>();
        for (String e : launcherClasspath.split(File.pathSeparator)) {
            if (e.isBlank()) {
                continue;
            }
            Path p = Path.of(e);
            if (!Files.isRegularFile(p) || !e.toLowerCase(Locale.ROOT).endsWith(".jar")) {
                return disabled("the launcher's classpath is not all jars (" + e + ")");
            }
            entries.add(p);
        }
        if (entries.isEmpty()) {
            return disabled("empty launcher classpath");
        }
        Path dir = cacheDir(env);
        if (dir == null) {
            return disabled("no cache directory (set " + DIR_ENV + ")");
        }
        try {
            return new ClassDataArchive(dir.resolve("ranks-" + key(entries) + ".jsa"), launcherClasspath, null);
        } catch (IOException e) {
            return disabled("cannot read the classpath: " + e.getMessage());
        }
    }

    private static ClassDataArchive disabled(String why) {
        return new ClassDataArchive(null, null, why);
    }

    private static Path cacheDir(Map<String, String> env) {
        String d = env.get(DIR_ENV);
        if (d != null && !d.isBlank()) {
            return Path.of(d);
        }
        String xdg = env.get("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank()) {
            return Path.of(xdg, "mpirun-j");
        }
        String home = System.getProperty("user.home");
        return home == null || home.isBlank() || home.equals("?") ? null : Path.of(home, ".cache", "mpirun-j");
    }

    /** A digest of the JDK and of every entry's path, size and modification time. */
    private static String key(List<Path> entries) throws IOException {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        StringBuilder sb = new StringBuilder();
        sb.append(System.getProperty("java.home")).append('\n').append(System.getProperty("java.vm.version"))
                .append('\n');
        for (Path p : entries) {
            sb.append(p.toAbsolutePath()).append(' ').append(Files.size(p)).append(' ')
                    .append(Files.getLastModifiedTime(p).toMillis()).append('\n');
        }
        return HexFormat.of().formatHex(md.digest(sb.toString().getBytes(StandardCharsets.UTF_8)), 0, 8);
    }

    /**
     * The JVM options that make a rank use the archive and the unpacked native libraries (none if there
     * are none yet). {@code rankLdLibraryPath} is the ranks' {@code LD_LIBRARY_PATH} (null if unset), which
     * their JVM would put in front of its default {@code java.library.path}.
     */
    List<String> useOptions(String rankLdLibraryPath) {
        if (archive == null || !Files.isRegularFile(archive)) {
            return List.of();
        }
        List<String> opts = new ArrayList<>(QUIET);
        opts.addAll(MAP_AT_ARCHIVED_ADDRESS);
        opts.add("-XX:SharedArchiveFile=" + archive);
        if (Files.isDirectory(nativeDir())) {
            opts.add("-Djava.library.path=" + libraryPath(System.getProperty("java.library.path", ""),
                    System.getenv(LD_LIBRARY_PATH), rankLdLibraryPath, nativeDir()));
        }
        return opts;
    }

    /**
     * A rank's {@code java.library.path}: what its JVM would choose by itself ({@code rankLd}, the ranks'
     * {@code LD_LIBRARY_PATH}, in front of the JDK's default directories, which are this JVM's
     * {@code launcherPath} without its own {@code launcherLd} in front), then {@code nativeDir}.
     */
    static String libraryPath(String launcherPath, String launcherLd, String rankLd, Path nativeDir) {
        String defaults = launcherPath;
        if (launcherLd != null && defaults.startsWith(launcherLd + File.pathSeparator)) {
            defaults = defaults.substring(launcherLd.length() + 1);
        }
        StringBuilder sb = new StringBuilder();
        if (rankLd != null) {
            sb.append(rankLd).append(File.pathSeparator);
        }
        if (!defaults.isEmpty()) {
            sb.append(defaults).append(File.pathSeparator);
        }
        return sb.append(nativeDir).toString();
    }

    /** The classpath's jars merged into one, beside the archive (if they could be merged). */
    private Path mergedJar() {
        String name = archive.getFileName().toString();
        return archive.resolveSibling(name.substring(0, name.length() - ".jsa".length()) + ".jar");
    }

    /**
     * The classpath the ranks run with in place of {@code launcherClasspath} (the one this archive was made
     * for): the merged jar the archive was made over, if there is one, else {@code launcherClasspath}.
     */
    String rankClasspath(String launcherClasspath) {
        if (archive == null || !Files.isRegularFile(archive) || !Files.isRegularFile(mergedJar())) {
            return launcherClasspath;
        }
        return mergedJar().toString();
    }

    /**
     * Merges the classpath's jars into {@link #mergedJar()} once (a temporary file moved into place), for the
     * training to run over; returns the classpath to train with: the merged jar, or the jars if they cannot
     * be merged.
     */
    private String mergeClasspath(RankOutput log, boolean verbose) {
        Path merged = mergedJar();
        if (Files.isRegularFile(merged)) {
            return merged.toString();
        }
        Path tmp = merged.resolveSibling(merged.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        try {
            List<Path> jars = new ArrayList<>();
            for (String e : classpath.split(File.pathSeparator)) {
                if (!e.isBlank()) {
                    jars.add(Path.of(e));
                }
            }
            String whyNot = MergedJar.merge(jars, tmp);
            if (whyNot != null) {
                if (verbose) {
                    log.launcherError("the ranks keep their jars (not merged: " + whyNot + ")");
                }
                return classpath;
            }
            // never over another launcher's (an archive made over it would no longer match it): a hard link, or
            // where there are none a plain move, fails if it is there, and then that one is used
            try {
                Files.createLink(merged, tmp);
            } catch (FileAlreadyExistsException anothers) {
                return merged.toString();
            } catch (UnsupportedOperationException | IOException noLink) {
                try {
                    Files.move(tmp, merged);
                } catch (FileAlreadyExistsException anothers) {
                    return merged.toString();
                }
            }
            return merged.toString();
        } catch (IOException | RuntimeException e) {
            if (verbose) {
                log.launcherError("the ranks keep their jars (cannot merge them: " + e.getMessage() + ")");
            }
            return classpath;
        } finally {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // a stray temporary file in the cache directory
            }
        }
    }

    /** The directory of the unpacked native libraries, beside the archive. */
    private Path nativeDir() {
        String name = archive.getFileName().toString();
        return archive.resolveSibling(name.substring(0, name.length() - ".jsa".length()) + ".native");
    }

    /**
     * Unpacks every {@code META-INF/native/*.so} of the classpath's jars into {@link #nativeDir()}, once
     * (a temporary directory renamed into place, so a concurrent launcher sees all or nothing). Never
     * throws: without it Netty unpacks its library in every rank, as it does by itself.
     */
    private void unpackNativeLibraries() {
        Path dir = nativeDir();
        if (Files.isDirectory(dir)) {
            return;
        }
        Path tmp = dir.resolveSibling(dir.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        try {
            Files.createDirectories(tmp);
            for (String e : classpath.split(File.pathSeparator)) {
                if (!e.isBlank()) {
                    unpackNative(Path.of(e), tmp);
                }
            }
            Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE); // even empty: the jars are read once per key
        } catch (IOException | RuntimeException e) {
            // another launcher may have moved its own into place; otherwise the ranks unpack as before
        } finally {
            FileTrees.deleteQuietly(tmp);
        }
    }

    /** Copies {@code jar}'s {@code META-INF/native/*.so} into {@code dir}; returns how many. */
    static int unpackNative(Path jar, Path dir) throws IOException {
        int n = 0;
        try (JarFile jf = new JarFile(jar.toFile())) {
            for (JarEntry entry : java.util.Collections.list(jf.entries())) {
                String name = entry.getName();
                String file = name.substring(Math.min(name.length(), NATIVE_PREFIX.length()));
                if (name.startsWith(NATIVE_PREFIX) && file.endsWith(".so") && file.indexOf('/') < 0
                        && !entry.isDirectory()) {
                    try (InputStream in = jf.getInputStream(entry)) {
                        Files.copy(in, dir.resolve(file), StandardCopyOption.REPLACE_EXISTING);
                    }
                    n++;
                }
            }
        }
        return n;
    }

    /**
     * Deletes the archives (and failure markers) of other keys not touched for {@link #STALE_MS}:
     * every rebuild of a jar makes a new key, and each archive is some megabytes.
     */
    private void pruneStale() {
        long cutoff = System.currentTimeMillis() - STALE_MS;
        try (var files = Files.newDirectoryStream(archive.getParent(), "ranks-*")) {
            for (Path f : files) {
                if (!f.equals(archive) && !f.equals(nativeDir()) && !f.equals(mergedJar())
                        && Files.getLastModifiedTime(f).toMillis() < cutoff) {
                    FileTrees.deleteQuietly(f);
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // another launcher may be pruning too; nothing depends on it
        }
    }

    /** One line for {@code --verbose}. */
    String describe() {
        if (archive == null) {
            return "no class-data archive for the ranks: " + disabledBecause;
        }
        return Files.isRegularFile(archive) ? "ranks use the class-data archive " + archive
                : "no class-data archive for the ranks yet (" + archive + ")";
    }

    /**
     * Makes the archive if it is enabled and missing (once per key; a failure is remembered), by
     * running {@link CdsTraining} with {@code java}. Returns true if the archive exists afterwards.
     * Never throws: without an archive the ranks just start more slowly.
     */
    boolean ensure(String java, RankOutput log, boolean verbose) {
        if (archive == null) {
            return false;
        }
        if (Files.isRegularFile(archive)) {
            unpackNativeLibraries();
            return true;
        }
        Path failed = archive.resolveSibling(archive.getFileName() + ".failed");
        if (Files.exists(failed)) {
            return false;
        }
        Path tmp = archive.resolveSibling(archive.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        Path logFile = archive.resolveSibling(archive.getFileName() + "." + ProcessHandle.current().pid() + ".log");
        try {
            Files.createDirectories(archive.getParent());
            if (verbose) {
                log.launcherError("making the ranks' class-data archive (once): " + archive);
            }
            String trainingClasspath = mergeClasspath(log, verbose);
            List<String> cmd = new ArrayList<>(List.of(java, "-Xshare:auto"));
            cmd.addAll(QUIET);
            cmd.addAll(List.of("-XX:ArchiveClassesAtExit=" + tmp, "-cp", trainingClasspath,
                    CdsTraining.class.getName()));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(logFile.toFile()).start();
            p.getOutputStream().close();
            if (!p.waitFor(TRAINING_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
                throw new IOException("training did not finish within " + TRAINING_TIMEOUT_MS + " ms");
            }
            if (p.exitValue() != 0 || !Files.isRegularFile(tmp) || Files.size(tmp) == 0) {
                throw new IOException("training exited with status " + p.exitValue() + " (see " + failed + ")");
            }
            try {
                Files.move(tmp, archive, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, archive, StandardCopyOption.REPLACE_EXISTING);
            }
            Files.deleteIfExists(logFile);
            unpackNativeLibraries();
            pruneStale();
            return true;
        } catch (IOException | RuntimeException e) {
            if (verbose) {
                log.launcherError("no class-data archive for the ranks: " + e.getMessage());
            }
            try {
                if (Files.exists(logFile)) {
                    Files.move(logFile, failed, StandardCopyOption.REPLACE_EXISTING);
                } else {
                    Files.writeString(failed, String.valueOf(e));
                }
            } catch (IOException ignored) {
                // it will be retried next time
            }
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            try {
                Files.deleteIfExists(tmp);
                Files.deleteIfExists(logFile);
            } catch (IOException ignored) {
                // a stray temporary file in the cache directory
            }
        }
    }
}
