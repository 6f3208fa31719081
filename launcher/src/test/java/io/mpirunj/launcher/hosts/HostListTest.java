package io.mpirunj.launcher.hosts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostListTest {
    @Test
    void bothHostfileFormatsCommentsAndBlankLines() {
        String text = """
                # the cluster
                node1 slots=4
                node2:2        # MPICH style
                
                node3
                node4 slots=2 max_slots=8
                node1 slots=1  # a second mention adds slots
                """;
        assertEquals(List.of(new Host("node1", 5), new Host("node2", 2), new Host("node3", 1), new Host("node4", 2)),
                HostList.parseHostfile(text, "hosts"));
    }

    @Test
    void addressesIncludingBracketedIpv6() {
        assertEquals(List.of(new Host("127.0.0.2", 3), new Host("[::1]", 2), new Host("10.0.0.1", 1)),
                HostList.parseHostfile("127.0.0.2:3\n[::1]:2\n10.0.0.1\n", "f"));
    }

    @Test
    void errorsNameTheFileAndLine() {
        assertError("f line 2: slots=0 (expected: a count >= 1)", "a\nb slots=0\n");
        assertError("f line 3: slots=x (expected: a count >= 1)", "# c\n\nb:x\n");
        assertError("f line 1: unknown 'cores=2' (expected: host, host slots=N or host:N)", "a cores=2");
        assertError("f line 1: 'a:2 slots=3' gives the count twice (expected: host slots=N or host:N)", "a:2 slots=3");
        assertError("f line 2: bad host name 'b/c' (expected: a name or an address, then optionally :N or slots=N)",
                "a\nb/c\n");
        assertError("f: no hosts in the hostfile", "# nothing\n\n");
    }

    private static void assertError(String message, String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HostList.parseHostfile(text, "f"));
        assertEquals(message, e.getMessage());
    }

    @Test
    void hostOption() {
        assertEquals(List.of(new Host("a", 1), new Host("b", 2)), HostList.parseHostOption("a,b:2"));
        assertEquals(List.of(new Host("a", 3)), HostList.parseHostOption("a:2,a"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HostList.parseHostOption("a,,b"));
        assertTrue(e.getMessage().startsWith("--host a,,b: bad host name ''"), e.getMessage());
    }

    @Test
    void orchestratorHostfiles(@TempDir Path dir) throws Exception {
        Path ompi = Files.writeString(dir.resolve("ompi"), "w0 slots=2\nw1 slots=2\n");
        Path hydra = Files.writeString(dir.resolve("hydra"), "h0:1\n");
        assertEquals(ompi, HostList.orchestratorHostfile(Map.of(HostList.OMPI_HOSTFILE_ENV, ompi.toString(),
                HostList.HYDRA_HOSTFILE_ENV, hydra.toString())));
        assertEquals(hydra, HostList.orchestratorHostfile(Map.of(HostList.HYDRA_HOSTFILE_ENV, hydra.toString())));
        assertEquals(null, HostList.orchestratorHostfile(Map.of()));
        assertEquals(List.of(new Host("h0", 1)), HostList.readHostfile(hydra));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HostList.readHostfile(dir.resolve("missing")));
        assertEquals(dir.resolve("missing") + ": cannot read the hostfile: no such file or directory", e.getMessage());
    }

    @Test
    void localHosts() {
        assertTrue(new Host("localhost", 1).isLocal());
        assertTrue(new Host("127.0.0.1", 1).isLocal());
        assertTrue(!new Host("127.0.0.2", 1).isLocal(), "other loopback addresses go through the agent");
    }
}
