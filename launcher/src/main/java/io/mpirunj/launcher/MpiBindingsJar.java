package io.mpirunj.launcher;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Arrays;

/**
 * The jar of package {@code mpi} (mpirun-j's pure-Java version of Open MPI's Java bindings,
 * {@code mpirunj-mpi-*.jar}), which every rank gets on its classpath so that programs written for
 * Open MPI's bindings run unchanged, with no native library. The one place the launcher adds it: rank
 * processes get it after the launcher's own entries and before the user's (so ours wins over a copy
 * of Open MPI's {@code mpi.jar} on the user's classpath); thread ranks share the launcher's copy (see
 * {@link RankClassLoader}).
 */
final class MpiBindingsJar {
    private MpiBindingsJar() {
    }

    /** Where {@code mpi.MPI} is on the launcher's classpath (a jar, or a classes directory in a build), or null. */
    static Path location() {
        try {
            Class<?> mpi = Class.forName("mpi.MPI", false, MpiBindingsJar.class.getClassLoader());
            CodeSource source = mpi.getProtectionDomain().getCodeSource();
            return source == null ? null : Path.of(source.getLocation().toURI()).toAbsolutePath().normalize();
        } catch (ClassNotFoundException | URISyntaxException | IllegalArgumentException e) {
            return null;
        }
    }

    /** {@code classpath} with the jar appended, unless it is already there (or not found). */
    static String addTo(String classpath) {
        Path jar = location();
        if (jar == null) {
            return classpath;
        }
        String entry = jar.toString();
        if (Arrays.asList(classpath.split(File.pathSeparator)).contains(entry)) {
            return classpath;
        }
        return classpath.isEmpty() ? entry : classpath + File.pathSeparator + entry;
    }
}
