package io.mpirunj.docker;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The recipe of an mpirun-j node image that needs no registry: {@code FROM scratch}, holding
 *
 * <ul>
 *   <li>a Java runtime made by {@code jlink} from the JDK running this code (the modules a rank uses),
 *       under {@code /opt/java};
 *   <li>every shared library {@code ldd} lists for that runtime and for {@code env} and {@code sleep}
 *       (the launch agent runs {@code env VAR=... java ...}; the container idles in {@code sleep});
 *   <li>the rank classpath, each entry at the same absolute path as on the launcher's host, as a shared
 *       file system would have it: the launcher's command line then works unchanged on every node.
 * </ul>
 *
 * {@link #writeContext} lays the build context out; {@link #build} runs {@code docker build}. From the
 * command line: {@code java -cp ... io.mpirunj.docker.NodeImage TAG CLASSPATH} (see {@code build-image.sh}).
 */
public final class NodeImage {
    /** The modules a rank JVM needs (Netty wants jdk.unsupported; slf4j and JMX-free otherwise). */
    static final List<String> MODULES = List.of("java.base", "java.logging", "java.management", "java.naming",
            "jdk.unsupported", "jdk.crypto.ec", "java.xml");
    /** Host programs the image carries: {@code env} for the launch agent, {@code sleep} to idle. */
    static final List<String> PROGRAMS = List.of("/usr/bin/env", "/usr/bin/sleep");
    /** Where the runtime goes in the image. */
    public static final String JAVA_HOME = "/opt/java";

    private static final Pattern LDD_PATH = Pattern.compile("(/\\S+)");

    private NodeImage() {
    }

    /** {@code NodeImage TAG CLASSPATH}: builds the image TAG holding CLASSPATH's entries. */
    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: NodeImage TAG CLASSPATH");
            System.exit(2);
        }
        Path context = Files.createTempDirectory("mpirunj-node-image");
        try {
            writeContext(context, classpathEntries(args[1]));
            build(context, args[0]);
            System.out.println("built image " + args[0]);
        } finally {
            deleteTree(context);
        }
    }

    /** The existing entries of a {@link File#pathSeparator}-separated classpath, absolute. */
    public static List<Path> classpathEntries(String classpath) {
        List<Path> entries = new ArrayList<>();
        for (String e : classpath.split(File.pathSeparator)) {
            if (!e.isBlank() && Files.exists(Path.of(e))) {
                entries.add(Path.of(e).toAbsolutePath().normalize());
            }
        }
        return entries;
    }

    /** Writes the Dockerfile and {@code rootfs/} into {@code context}. */
    public static void writeContext(Path contextDir, List<Path> classpath) throws IOException, InterruptedException {
        Path context = contextDir.toAbsolutePath().normalize();
        Path rootfs = context.resolve("rootfs");
        deleteTree(rootfs);
        // jlink once per context directory: the runtime depends only on the JDK, not on the build
        Path jre = context.resolve("jre");
        if (!Files.isExecutable(jre.resolve("bin/java"))) {
            deleteTree(jre);
            Path jlink = Path.of(System.getProperty("java.home"), "bin", "jlink");
            run(List.of(jlink.toString(), "--add-modules", String.join(",", MODULES), "--strip-debug",
                    "--no-man-pages", "--no-header-files", "--output", jre.toString()));
        }
        Path java = rootfs.resolve(JAVA_HOME.substring(1));
        copyTree(jre, java);
        Set<String> libraries = new LinkedHashSet<>();
        List<Path> binaries = new ArrayList<>();
        binaries.add(java.resolve("bin/java"));
        try (Stream<Path> s = Files.walk(java.resolve("lib"))) {
            s.filter(p -> p.getFileName().toString().endsWith(".so")).forEach(binaries::add);
        }
        for (String program : PROGRAMS) {
            binaries.add(Path.of(program));
            copy(Path.of(program), rootfs);
        }
        // the runtime's own libraries find each other through the JVM; ldd needs to be told where
        String runtimeLibs = java.resolve("lib") + File.pathSeparator + java.resolve("lib/server");
        for (Path b : binaries) {
            libraries.addAll(ldd(b, runtimeLibs));
        }
        for (String lib : libraries) {
            if (!Path.of(lib).normalize().startsWith(java)) {
                copy(Path.of(lib), rootfs);
            }
        }
        for (Path entry : classpath) {
            copy(entry, rootfs);
        }
        // names resolve as on any Linux host: /etc/hosts (Docker writes it), then DNS
        Files.writeString(Files.createDirectories(rootfs.resolve("etc")).resolve("nsswitch.conf"),
                "hosts: files dns\n");
        Path tmp = Files.createDirectories(rootfs.resolve("tmp")); // Netty unpacks its epoll library here
        tmp.toFile().setWritable(true, false);
        Files.writeString(context.resolve(".dockerignore"), "jre\n");
        Files.writeString(context.resolve("Dockerfile"), String.join("\n",
                "# mpirun-j node: no base image, nothing to pull",
                "FROM scratch",
                "COPY rootfs/ /",
                "ENV PATH=" + JAVA_HOME + "/bin:/usr/bin JAVA_HOME=" + JAVA_HOME,
                "CMD [\"/usr/bin/sleep\", \"infinity\"]",
                ""));
    }

    /** {@code docker build -t tag context}. */
    public static void build(Path context, String tag) throws IOException, InterruptedException {
        run(List.of("docker", "build", "-q", "-t", tag, context.toString()));
    }

    /** The absolute library paths {@code ldd} lists for {@code binary} (the loader included). */
    static List<String> ldd(Path binary, String libraryPath) throws IOException, InterruptedException {
        List<String> libs = new ArrayList<>();
        ProcessBuilder pb = new ProcessBuilder("ldd", binary.toString());
        pb.environment().put("LD_LIBRARY_PATH", libraryPath);
        for (String line : run(pb).split("\\R")) {
            if (line.contains("not found")) {
                throw new IOException("ldd " + binary + ": " + line.strip());
            }
            Matcher m = LDD_PATH.matcher(line);
            if (m.find()) {
                libs.add(m.group(1));
            }
        }
        return libs;
    }

    /** Copies {@code source} (file or directory, links followed) to the same absolute path under {@code root}. */
    static void copy(Path source, Path root) throws IOException {
        Path target = root.resolve(source.toAbsolutePath().toString().substring(1));
        if (Files.isDirectory(source)) {
            copyTree(source, target);
        } else {
            Files.createDirectories(target.getParent());
            // the library's real content under the name the loader looks for
            Files.copy(source.toRealPath(), target, StandardCopyOption.REPLACE_EXISTING);
            if (Files.isExecutable(source.toRealPath())) {
                target.toFile().setExecutable(true, false);
            }
        }
    }

    private static void copyTree(Path source, Path target) throws IOException {
        try (Stream<Path> s = Files.walk(source)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path t = target.resolve(source.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.createDirectories(t.getParent());
                    Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    /** Runs {@code cmd}; returns its output, or throws with it if it fails. */
    public static String run(List<String> cmd) throws IOException, InterruptedException {
        return run(new ProcessBuilder(cmd));
    }

    static String run(ProcessBuilder pb) throws IOException, InterruptedException {
        List<String> cmd = pb.command();
        Process p = pb.redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out;
        try (InputStream in = p.getInputStream()) {
            out = new String(in.readAllBytes(), Charset.defaultCharset());
        }
        if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", cmd) + " failed:\n" + out);
        }
        return out;
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        }
    }
}
