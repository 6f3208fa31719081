package io.mpirunj.mpicompat;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Builds the binary-compatibility fixture: compiles a stub of Open MPI 4.1's published {@code mpi}
 * signatures (test resources {@code ompi-stub/}, written from its javadoc), then a program against
 * that stub alone ({@code ompi-app/}). The program's classes, without the stub, are what a user of
 * Open MPI's bindings would bring to mpirun-j. Used by this module's tests and the launcher's.
 */
public final class OmpiStub {
    /** The program's main class. */
    public static final String APP_MAIN = "ompiapp.OmpiApp";

    private static final String[] STUB = {
        "MPIException", "Freeable", "MPI", "Comm", "Intracomm", "Request", "Prequest", "Status", "Datatype", "Op",
        "UserFunction", "Group",
    };

    private OmpiStub() {
    }

    /** Compiles stub and program under {@code work}; returns the directory of the program's classes. */
    public static Path compileApp(Path work) throws IOException {
        Path stubSrc = work.resolve("stub-src");
        List<Path> stubFiles = new ArrayList<>();
        for (String name : STUB) {
            stubFiles.add(copyResource("ompi-stub/mpi/" + name + ".java", stubSrc.resolve("mpi/" + name + ".java")));
        }
        Path stubClasses = work.resolve("stub-classes");
        javac(stubFiles, "", stubClasses);
        Path app = copyResource("ompi-app/ompiapp/OmpiApp.java", work.resolve("app-src/ompiapp/OmpiApp.java"));
        Path appClasses = work.resolve("app-classes");
        javac(List.of(app), stubClasses.toString(), appClasses);
        return appClasses;
    }

    /** Compiles {@code sources} with exactly {@code classpath} (nothing else) into {@code out}. */
    public static void javac(List<Path> sources, String classpath, Path out) throws IOException {
        Files.createDirectories(out);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args = new ArrayList<>(List.of("--release", "17", "-proc:none", "-d", out.toString(),
                "-cp", classpath));
        for (Path s : sources) {
            args.add(s.toString());
        }
        StringWriter err = new StringWriter();
        int code = javac.run(null, null, new java.io.PrintStream(new java.io.OutputStream() {
            @Override
            public void write(int b) {
                err.write(b);
            }
        }), args.toArray(new String[0]));
        if (code != 0) {
            throw new IllegalStateException("javac failed (" + code + ") on " + sources + ":\n" + err);
        }
    }

    private static Path copyResource(String resource, Path to) throws IOException {
        Files.createDirectories(to.getParent());
        try (InputStream in = OmpiStub.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("test resource " + resource + " not found");
            }
            Files.copy(in, to);
        }
        return to;
    }
}
