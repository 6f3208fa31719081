package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Mpi;
import io.mpirunj.benchmarks.osu.OsuBenchmark;
import java.io.File;
import java.util.List;
import org.junit.jupiter.api.Test;

class RankClasspathTest {
    @Test
    void ranksGetTheRuntimeButNotTheTools() {
        List<String> rank = List.of(RankClasspath.of(MpirunJ.launcherClasspath()).split(File.pathSeparator));
        assertTrue(rank.contains(LauncherRun.classpathOf(Mpi.class)), rank::toString);
        assertTrue(rank.contains(LauncherRun.classpathOf(RankMain.class)), rank::toString);
        assertTrue(rank.contains(LauncherRun.classpathOf(io.netty.channel.Channel.class)), rank::toString);
        assertFalse(rank.contains(LauncherRun.classpathOf(OsuBenchmark.class)), rank::toString);
        // the OSU programs parse their options with picocli in every rank
        assertTrue(rank.contains(LauncherRun.classpathOf(picocli.CommandLine.class)), rank::toString);
        assertFalse(rank.contains(LauncherRun.classpathOf(org.knowm.xchart.XYChart.class)), rank::toString);
        assertFalse(rank.stream().anyMatch(e -> e.contains("pdfbox") || e.contains("jfree")), rank::toString);
        assertFalse(rank.stream().anyMatch(e -> e.contains("progressbar") || e.contains("jline")), rank::toString);
    }
}
