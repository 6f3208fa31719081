package io.mpirunj.launcher;

/**
 * The training run of the launcher's own class-data archive, which the {@code mpirun-j} script makes
 * once per build ({@code java -XX:ArchiveClassesAtExit=... LauncherTraining}, then every launch maps it):
 * a two-rank Hello as processes and as threads, so the archive holds what a launch loads (picocli, the
 * job, the rendezvous server, output forwarding) and what thread ranks load (the runtime). Without it
 * the launcher JVM reads and verifies about 2,000 classes from jars at every start, before it starts
 * any rank. Exits 0 if both jobs succeeded.
 */
final class LauncherTraining {
    private LauncherTraining() {
    }

    public static void main(String[] args) {
        String hello = "io.mpirunj.examples.Hello";
        int processes = MpirunJ.commandLine().execute("-np", "2", hello);
        int threads = MpirunJ.commandLine().execute("-np", "2", "--threads", hello);
        System.exit(processes == 0 && threads == 0 ? 0 : 1);
    }
}
