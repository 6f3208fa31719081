package io.mpirunj.docker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.docker.apps.Blocker;
import io.mpirunj.docker.apps.EveryAlgorithm;
import io.mpirunj.examples.Hello;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;
import io.mpirunj.runtime.spi.CollectiveOp;
import io.mpirunj.runtime.spi.CollectiveRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;

/**
 * Four containers of the registry-free node image on one Docker network, the launcher on this host
 * with {@code --launch-agent "docker exec"}, four ranks per container. Skipped, with a message, when
 * no Docker engine answers.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class DockerClusterTest {
    static final int NODES = 4;
    static final int SLOTS = 4;
    static final int NP = NODES * SLOTS;
    /** The acceptance limit from losing a node to the launcher's exit. */
    static final long NODE_LOSS_EXIT_LIMIT_S = 10;

    @TempDir
    static Path dir;

    DockerCluster cluster;

    @BeforeAll
    static void buildImage() throws Exception {
        Assumptions.assumeTrue(DockerClientFactory.instance().isDockerAvailable(),
                "no Docker engine reachable: the multi-node container tests are skipped (docker/ensure-docker.sh "
                        + "installs and starts one)");
        Path context = Files.createDirectories(Path.of("target", "node-image")); // keeps the jlink'd runtime
        NodeImage.writeContext(context, DockerCluster.rankClasspath());
        NodeImage.build(context, DockerCluster.IMAGE);
    }

    @BeforeEach
    void startCluster() throws Exception {
        cluster = new DockerCluster(NODES, SLOTS, dir);
    }

    @AfterEach
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private List<String> args(String... tail) {
        List<String> a = new ArrayList<>(cluster.launcherOptions());
        a.addAll(List.of(tail));
        return a;
    }

    @Test
    void helloFromEveryRankOnEveryNode() {
        Launch run = Launch.of(args("-np", String.valueOf(NP), "--tag-output", Hello.class.getName()));
        assertEquals(0, run.exitCode(), run::toString);
        for (int r = 0; r < NP; r++) {
            String node = cluster.names.get(r / SLOTS);
            assertTrue(run.out().contains("Hello from rank " + r + " of " + NP + " on " + node), run::toString);
        }
    }

    @Test
    void bcastAndAlltoallWithEveryAlgorithm() {
        Launch run = Launch.of(args("-np", String.valueOf(NP), EveryAlgorithm.class.getName()));
        assertEquals(0, run.exitCode(), run::toString);
        CollectiveRegistry registry = new CollectiveRegistry(CollectiveRegistry.discover(
                getClass().getClassLoader()), null);
        for (CollectiveOp op : List.of(CollectiveOp.BCAST, CollectiveOp.ALLTOALL)) {
            List<String> names = registry.names(op);
            assertTrue(!names.isEmpty());
            for (String name : names) {
                if (registry.lookup(op, name) instanceof CollectiveAlgorithm.Parameterized) {
                    continue; // file: schedules need a file
                }
                assertTrue(run.out().contains("passed " + op.cliName() + " " + name + "\n"), name + "\n" + run);
            }
        }
    }

    @Test
    void dockerKillOfOneNodeEndsTheJobNamingItsRanks() throws Exception {
        Launch.Running job = Launch.start(args("-np", String.valueOf(NP), Blocker.class.getName()));
        job.awaitOut("ready", NP, 180_000);
        NodeImage.run(List.of("docker", "kill", cluster.containerId(2)));
        Launch run = job.done().get(NODE_LOSS_EXIT_LIMIT_S, TimeUnit.SECONDS);
        assertNotEquals(0, run.exitCode(), run::toString);
        assertTrue(run.err().contains("lost node " + cluster.names.get(2) + ": ranks 8-11 ("), run::toString);
    }

    @Test
    void networkDisconnectOfOneNodeEndsTheJobNamingItsRanks() throws Exception {
        Launch.Running job = Launch.start(args("-np", String.valueOf(NP), Blocker.class.getName()));
        job.awaitOut("ready", NP, 180_000);
        NodeImage.run(List.of("docker", "network", "disconnect", cluster.network.getId(), cluster.containerId(1)));
        Launch run = job.done().get(NODE_LOSS_EXIT_LIMIT_S, TimeUnit.SECONDS);
        assertNotEquals(0, run.exitCode(), run::toString);
        assertTrue(run.err().contains("lost node " + cluster.names.get(1) + ": ranks 4-7 ("), run::toString);
    }
}
