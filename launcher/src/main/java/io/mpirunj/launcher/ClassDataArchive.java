package io.mpirunj.launcher;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
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
 */
final class ClassDataArchive {
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

    private final Path archive;
    private final String classpath;
    private final String disabledBecause;

    private ClassDataArchive(Path archive, String classpath, String disabledBecause) {
        this.archive = archive;
        this.classpath = classpath;
        this.disabledBecause = disabledBecause;
    }

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

    /** The JVM options that make a rank use the archive (none if there is none yet). */
    List<String> useOptions() {
        if (archive == null || !Files.isRegularFile(archive)) {
            return List.of();
        }
        List<String> opts = new ArrayList<>(QUIET);
        opts.add("-XX:SharedArchiveFile=" + archive);
        return opts;
    }

    /**
     * Deletes the archives (and failure markers) of other keys not touched for {@link #STALE_MS}:
     * every rebuild of a jar makes a new key, and each archive is some megabytes.
     */
    private void pruneStale() {
        long cutoff = System.currentTimeMillis() - STALE_MS;
        try (var files = Files.newDirectoryStream(archive.getParent(), "ranks-*")) {
            for (Path f : files) {
                if (!f.equals(archive) && Files.getLastModifiedTime(f).toMillis() < cutoff) {
                    Files.deleteIfExists(f);
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
            List<String> cmd = new ArrayList<>(List.of(java, "-Xshare:auto"));
            cmd.addAll(QUIET);
            cmd.addAll(List.of("-XX:ArchiveClassesAtExit=" + tmp, "-cp", classpath, CdsTraining.class.getName()));
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
