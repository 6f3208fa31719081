package io.mpirunj.docker;

import io.mpirunj.launcher.MpirunJ;
import io.mpirunj.launcher.RankClasspath;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.utility.DockerImageName;

/**
 * N containers of the node image on one Docker network, and what the launcher on this host needs to
 * run a job on them: a hostfile of their names and the network's gateway (this host as the
 * containers see it) as the rendezvous address.
 */
final class DockerCluster implements AutoCloseable {
    /** The image the tests build once per run from this build's classes. */
    static final String IMAGE = "mpirunj-node:test";

    final Network network;
    final List<GenericContainer<?>> nodes = new ArrayList<>();
    final List<String> names = new ArrayList<>();
    final Path hostfile;
    final String gateway;

    DockerCluster(int size, int slots, Path dir) throws Exception {
        network = Network.newNetwork();
        String id = UUID.randomUUID().toString().substring(0, 8);
        for (int i = 0; i < size; i++) {
            String name = "mpirunj-" + id + "-node" + i;
            names.add(name);
            GenericContainer<?> c = new GenericContainer<>(DockerImageName.parse(IMAGE))
                    .withNetwork(network)
                    .withCreateContainerCmdModifier(cmd -> cmd.withName(name).withHostName(name));
            nodes.add(c);
        }
        Startables.deepStart(nodes).get();
        StringBuilder hosts = new StringBuilder("# one line per container\n");
        for (String n : names) {
            hosts.append(n).append(" slots=").append(slots).append('\n');
        }
        hostfile = Files.writeString(Files.createTempFile(dir, "hosts", ""), hosts);
        gateway = DockerClientFactory.instance().client().inspectNetworkCmd().withNetworkId(network.getId()).exec()
                .getIpam().getConfig().get(0).getGateway();
    }

    /** The launcher options that place a job on these containers. */
    List<String> launcherOptions() {
        return List.of("--hostfile", hostfile.toString(), "--launch-agent", "docker exec",
                "--rendezvous-host", gateway,
                // lighter rank JVMs: 16 of them share this host's cores, and a busy host answers slowly
                "-J", "-XX:+UseSerialGC", "-J", "-XX:TieredStopAtLevel=1",
                "-J", "-Dmpirunj.tcp.handshakeTimeoutMs=60000");
    }

    String containerId(int node) {
        return nodes.get(node).getContainerId();
    }

    @Override
    public void close() {
        for (GenericContainer<?> c : nodes) {
            try {
                c.stop();
            } catch (RuntimeException e) {
                // already gone (killed by the test)
            }
        }
        network.close();
    }

    /**
     * The rank classpath of this build (what the image must hold): the launcher's, without the tools
     * and without what only the tests need. A library goes in when the launcher ships it (it is in
     * launcher/target/lib), so a dependency added to the runtime reaches the image without a list here
     * (a hand-kept list missed Jackson once and Caffeine once).
     */
    static List<Path> rankClasspath() {
        Set<String> shipped = shippedByLauncher();
        List<Path> keep = new ArrayList<>();
        for (Path p : NodeImage.classpathEntries(RankClasspath.of(MpirunJ.launcherClasspath()))) {
            String s = p.toString();
            String f = p.getFileName().toString();
            boolean project = s.contains(File.separator + "target" + File.separator) || f.startsWith("mpirunj-");
            if (project || shipped.contains(f)) {
                keep.add(p);
            }
        }
        return keep;
    }

    /** The file names of the libraries the launcher ships (its target/lib, built before this module's tests). */
    private static Set<String> shippedByLauncher() {
        Path lib = Path.of("..", "launcher", "target", "lib");
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(lib)) {
            return files.map(f -> f.getFileName().toString()).collect(java.util.stream.Collectors.toSet());
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot list " + lib.toAbsolutePath().normalize()
                    + " (build the launcher first: mvn install -pl launcher -am): " + e, e);
        }
    }
}
