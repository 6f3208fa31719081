package io.mpirunj.launcher;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a rank JVM's classpath holds: the launcher's classpath without the tools that only the
 * launcher's own commands use (the benchmarks module and its chart, PDF/SVG and progress-bar libraries).
 * A rank needs the runtime, the collectives, the fabric models, their libraries and {@link RankMain};
 * the user's classpath is added by the job. Fewer jars: less to open and verify at every rank's start.
 *
 * <p>Tool entries are found by the classes they hold, so the filter works for the packaged
 * {@code lib/} directory and for a build's {@code target/classes} alike. {@code mpirun-j bench}
 * passes the benchmarks' classes as the user classpath, so its ranks still have them. picocli stays: the
 * OSU programs parse their options with it in every rank.
 */
public final class RankClasspath {
    /** One class from each classpath entry a rank never needs. */
    static final List<String> TOOL_CLASSES = List.of(
            "io.mpirunj.benchmarks.osu.OsuBenchmark",
            "org.knowm.xchart.XYChart",
            "org.apache.pdfbox.pdmodel.PDDocument",
            "org.apache.pdfbox.io.IOUtils",
            "org.apache.fontbox.EncodedFont",
            "org.apache.commons.logging.Log",
            "de.rototor.pdfbox.graphics2d.IPdfBoxGraphics2DColorMapper",
            "de.erichseifert.vectorgraphics2d.intermediate.commands.Command",
            "com.madgag.gif.fmsware.GifDecoder",
            "org.jfree.svg.SVGGraphics2D",
            "me.tongfei.progressbar.ProgressBar",
            "org.jline.terminal.Terminal",
            "org.jline.nativ.JLineNativeLoader");

    private RankClasspath() {
    }

    /** {@code launcherClasspath} (absolute entries, {@link File#pathSeparator}-separated) without the tools. */
    public static String of(String launcherClasspath) {
        Set<Path> tools = toolEntries(RankClasspath.class.getClassLoader());
        List<String> kept = new ArrayList<>();
        for (String e : launcherClasspath.split(File.pathSeparator)) {
            if (!e.isBlank() && !tools.contains(Path.of(e).toAbsolutePath().normalize())) {
                kept.add(e);
            }
        }
        return String.join(File.pathSeparator, kept);
    }

    /** The classpath entries (as absolute paths) that hold {@link #TOOL_CLASSES}. */
    static Set<Path> toolEntries(ClassLoader loader) {
        Set<Path> entries = new HashSet<>();
        for (String name : TOOL_CLASSES) {
            try {
                Class<?> c = Class.forName(name, false, loader);
                CodeSource source = c.getProtectionDomain().getCodeSource();
                if (source != null && source.getLocation() != null) {
                    entries.add(Path.of(source.getLocation().toURI()).toAbsolutePath().normalize());
                }
            } catch (ClassNotFoundException | LinkageError | URISyntaxException | RuntimeException e) {
                // not on this classpath: nothing to leave out
            }
        }
        return entries;
    }
}
