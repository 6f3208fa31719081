package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LaunchWarmUpTest {
    @Test
    void warmsUpOnlyForAPlainProcessRunWithoutVerbose() {
        assertTrue(LaunchWarmUp.isPlainRun(new String[] {"-np", "16", "io.mpirunj.examples.Hello"}));
        assertTrue(LaunchWarmUp.isPlainRun(new String[] {"-np", "4", "-J", "-Xmx1g", "App", "arg"}));
        // a subcommand, help, a main class alone: picocli builds the subcommands, no ranks start
        assertFalse(LaunchWarmUp.isPlainRun(new String[] {"bench", "osu_latency", "-np", "2"}));
        assertFalse(LaunchWarmUp.isPlainRun(new String[] {"-np", "2", "--help"}));
        assertFalse(LaunchWarmUp.isPlainRun(new String[] {"io.mpirunj.examples.Hello"}));
        assertFalse(LaunchWarmUp.isPlainRun(new String[0]));
        // ranks as threads, a srun rank, the listing: not a process run
        assertFalse(LaunchWarmUp.isPlainRun(new String[] {"-np", "8", "--threads", "App"}));
        assertFalse(LaunchWarmUp.isPlainRun(new String[] {"--srun-rank", "App"}));
        assertFalse(LaunchWarmUp.isPlainRun(new String[] {"--list-algorithms"}));
        // --verbose sets the runtime's log level to info, which must be known before the first logger
        assertFalse(LaunchWarmUp.isPlainRun(new String[] {"-np", "2", "-v", "App"}));
        assertFalse(LaunchWarmUp.isPlainRun(new String[] {"-np", "2", "--verbose", "App"}));
        // even in the program's arguments (conservative: it only forgoes the warm-up)
        assertFalse(LaunchWarmUp.isPlainRun(new String[] {"-np", "2", "App", "-v"}));
    }
}
