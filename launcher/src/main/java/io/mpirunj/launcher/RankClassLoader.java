package io.mpirunj.launcher;

import java.net.URL;
import java.net.URLClassLoader;

/**
 * The class loader of one rank in threads mode, over the user's classpath, so each rank has its own
 * copy of the user's classes and therefore of their static fields.
 *
 * <p>User classes are loaded child-first: a class found on the user's classpath is defined here even
 * if the launcher's own classpath also has it (as in tests and IDE runs), otherwise two ranks would
 * share its statics. The platform, the mpirun-j runtime ({@code io.mpirunj}, {@code io.mpirunj.runtime},
 * {@code .collectives}, {@code .fabric}, {@code .launcher}) and the libraries they use are always
 * taken from the parent, so every rank sees the one runtime the launcher wired up. So is package
 * {@code mpi} (the Open MPI bindings API, {@link MpiBindingsJar}): its classes resolve the calling
 * rank themselves, and the launcher's copy wins over an Open MPI {@code mpi.jar} on the user's
 * classpath.
 */
final class RankClassLoader extends URLClassLoader {
    static {
        registerAsParallelCapable();
    }

    private static final String[] SHARED_PREFIXES = {
        "java.", "javax.", "jdk.", "sun.", "com.sun.", "org.slf4j.", "picocli.", "io.netty.",
        "com.google.protobuf.", "org.junit.", "org.opentest4j.",
        "io.mpirunj.runtime.", "io.mpirunj.collectives.", "io.mpirunj.fabric.", "io.mpirunj.launcher.",
        "mpi.",
    };

    RankClassLoader(URL[] urls, ClassLoader parent) {
        // unnamed: a named loader prefixes every frame of the user's classes in a stack trace ("mpirunj-rank//App.main"),
        // which a rank process's traces do not have
        super(urls, parent);
    }

    /** True for classes every rank must share with the launcher. */
    static boolean isShared(String className) {
        if (className.startsWith("io.mpirunj.") && className.indexOf('.', "io.mpirunj.".length()) < 0) {
            return true; // the public API package itself: io.mpirunj.Comm, Mpi, Buffer, ...
        }
        for (String p : SHARED_PREFIXES) {
            if (className.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (isShared(name)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                try {
                    c = findClass(name);
                } catch (ClassNotFoundException notOnUserClasspath) {
                    return super.loadClass(name, resolve);
                }
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }
}
