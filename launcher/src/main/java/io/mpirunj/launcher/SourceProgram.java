package io.mpirunj.launcher;

import com.sun.source.util.JavacTask;
import com.sun.source.util.TaskEvent;
import com.sun.source.util.TaskListener;
import io.mpirunj.Comm;
import io.mpirunj.io.IoErrors;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.TypeElement;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;

/**
 * A single-file program ({@code mpirun-j -np 4 Pi.java}), compiled once in the launcher, as
 * {@code java Pi.java} does: in memory with {@code javax.tools}, against the public API, Open MPI's Java API
 * (package {@code mpi}) and the
 * user's classpath; the first top-level class of the file is the main class. A compile error is
 * printed by the compiler itself, exactly as {@code javac} prints it, and no rank starts.
 *
 * <p>The class files are then written once to a private temporary directory that goes first on
 * the ranks' classpath, so processes and threads load them the same way; {@link #close()} deletes it.
 */
final class SourceProgram implements AutoCloseable {
    /** As the java launcher's source mode: no annotation processing, the lint it enables. */
    private static final List<String> OPTIONS = List.of("-proc:none", "-Xlint:deprecation", "-Xlint:unchecked");

    private final String mainClass;
    private final Path classes;

    private SourceProgram(String mainClass, Path classes) {
        this.mainClass = mainClass;
        this.classes = classes;
    }

    /** True when the launcher's MainClass argument names a source file rather than a class. */
    static boolean isSourceFile(String mainClassArgument) {
        return mainClassArgument.endsWith(".java");
    }

    /** The first top-level class in the file. */
    String mainClass() {
        return mainClass;
    }

    /** The directory with the compiled classes (to put first on the ranks' classpath). */
    Path classes() {
        return classes;
    }

    /**
     * Compiles {@code file} against the public API ({@code io.mpirunj}) and {@code classpath}.
     *
     * @param compilerOutput where the compiler's diagnostics go, as javac prints them
     * @throws UsageException if the file is missing, there is no compiler, or it does not compile
     */
    static SourceProgram compile(String file, List<Path> classpath, PrintWriter compilerOutput)
            throws UsageException {
        Path source = Path.of(file);
        if (!Files.isRegularFile(source)) {
            throw new UsageException("source file " + file + " does not exist");
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) {
            throw new UsageException("cannot compile " + file + ": this Java (" + System.getProperty("java.home")
                    + ") has no compiler; run mpirun-j with a JDK, or compile the program and pass -cp");
        }
        List<Path> compileClasspath = new ArrayList<>();
        compileClasspath.add(apiLocation());
        Path bindings = MpiBindingsJar.location(); // package mpi (Open MPI's Java API), on every rank's classpath too
        if (bindings != null) {
            compileClasspath.add(bindings);
        }
        compileClasspath.addAll(classpath);
        Map<String, ByteArrayOutputStream> output = new LinkedHashMap<>();
        String[] firstTopLevel = new String[1];
        boolean compiled;
        try (StandardJavaFileManager standard = compiler.getStandardFileManager(null, null, StandardCharsets.UTF_8);
                JavaFileManager inMemory = new ClassesInMemory(standard, output)) {
            standard.setLocationFromPaths(StandardLocation.CLASS_PATH, compileClasspath);
            JavacTask task = (JavacTask) compiler.getTask(compilerOutput, inMemory, null, OPTIONS, null,
                    standard.getJavaFileObjectsFromPaths(List.of(source)));
            task.addTaskListener(new TaskListener() {
                @Override
                public void started(TaskEvent e) {
                    // classes are analysed in the order they are declared: the first top-level one is the main class
                    TypeElement type = e.getTypeElement();
                    if (e.getKind() == TaskEvent.Kind.ANALYZE && firstTopLevel[0] == null && type != null
                            && type.getNestingKind() == NestingKind.TOP_LEVEL) {
                        firstTopLevel[0] = type.getQualifiedName().toString();
                    }
                }
            });
            compiled = task.call();
        } catch (IOException e) {
            throw new UsageException("cannot compile " + file + ": " + e.getMessage());
        } finally {
            compilerOutput.flush();
        }
        if (!compiled) {
            throw new UsageException(file + " did not compile (see above); no rank was started");
        }
        if (firstTopLevel[0] == null) {
            throw new UsageException(file + " declares no class (expected: a class with public static void "
                    + "main(String[]))");
        }
        return new SourceProgram(firstTopLevel[0], write(output));
    }

    /** Where the public API's classes are: the runtime jar (or classes directory) this launcher runs with. */
    private static Path apiLocation() {
        try {
            return Path.of(Comm.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("the runtime's location is not a path", e);
        }
    }

    /** Writes the compiled classes to a fresh temporary directory. */
    private static Path write(Map<String, ByteArrayOutputStream> classes) throws UsageException {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("mpirun-j-source-");
            for (Map.Entry<String, ByteArrayOutputStream> c : classes.entrySet()) {
                Path file = dir.resolve(c.getKey().replace('.', '/') + ".class");
                Files.createDirectories(file.getParent());
                Files.write(file, c.getValue().toByteArray());
            }
            return dir;
        } catch (IOException e) {
            FileTrees.deleteQuietly(dir);
            throw new UsageException("cannot write the compiled classes to a temporary directory: " + IoErrors.reason(e));
        }
    }

    /** Deletes the compiled classes. */
    @Override
    public void close() {
        FileTrees.deleteQuietly(classes);
    }

    /** Keeps every class file the compiler writes in memory, by binary class name. */
    private static final class ClassesInMemory extends ForwardingJavaFileManager<JavaFileManager> {
        private final Map<String, ByteArrayOutputStream> output;

        ClassesInMemory(JavaFileManager standard, Map<String, ByteArrayOutputStream> output) {
            super(standard);
            this.output = output;
        }

        @Override
        public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind,
                FileObject sibling) {
            URI uri = URI.create("mem:///" + className.replace('.', '/') + kind.extension);
            return new SimpleJavaFileObject(uri, kind) {
                @Override
                public OutputStream openOutputStream() {
                    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                    output.put(className, bytes);
                    return bytes;
                }
            };
        }
    }
}
