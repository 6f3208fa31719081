package io.mpirunj.mpicompat;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.testing.LocalCluster;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Classes compiled against a stub of Open MPI's published signatures link and run against this
 * package; and the test programs compile against this package alone.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BinaryCompatibilityTest {
    @TempDir
    static Path work;

    private static Path appClasses;

    private static synchronized Path app() throws IOException {
        if (appClasses == null) {
            appClasses = OmpiStub.compileApp(work);
        }
        return appClasses;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4, 7})
    void aProgramCompiledAgainstOpenMpisSignaturesRunsUnchanged(int np) throws Exception {
        Path classes = app();
        assertFalse(Files.exists(classes.resolve("mpi")), "the stub is not on the program's classpath");
        // parent: this test's class loader, which has mpirun-j's mpi package and nothing of the stub
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                getClass().getClassLoader())) {
            Method main = Class.forName(OmpiStub.APP_MAIN, true, loader).getMethod("main", String[].class);
            LocalCluster.run(np, world -> {
                try {
                    main.invoke(null, (Object) new String[0]);
                } catch (InvocationTargetException e) {
                    throw (Exception) e.getCause();
                }
            });
        }
    }

    @Test
    void theTestProgramsCompileAgainstThePackageAlone() throws Exception {
        Path programs = Path.of("src/test/java/io/mpirunj/mpicompat/programs");
        List<Path> sources;
        try (Stream<Path> files = Files.list(programs)) {
            sources = files.filter(p -> p.toString().endsWith(".java")).collect(Collectors.toList());
        }
        assertTrue(sources.size() >= 7, "found " + sources);
        Path mpiClasses = Path.of(mpi.MPI.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        // the classpath is package mpi's classes only: no runtime, no collectives
        OmpiStub.javac(sources, mpiClasses.toString(), work.resolve("programs-classes"));
        for (Path s : sources) {
            String text = Files.readString(s);
            assertFalse(text.contains("io.mpirunj.") && !text.contains("package io.mpirunj.mpicompat.programs"),
                    s + " uses mpirun-j's own API");
        }
    }
}
