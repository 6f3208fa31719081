package io.mpirunj.launcher.hosts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LaunchAgentTest {
    private static final Map<String, String> ENV = new LinkedHashMap<>(Map.of("A", "x y"));
    private static final List<String> ARGV = List.of("java", "-cp", "/p/a.jar", "Main", "it's");

    @Test
    void sshGetsOneShellQuotedCommandLine() {
        assertEquals(List.of("ssh", "-p", "2222", "node1", "env 'A=x y' java -cp /p/a.jar Main 'it'\\''s'"),
                LaunchAgent.parse("ssh -p 2222").command("node1", ENV, ARGV));
    }

    @Test
    void otherAgentsGetSeparateWords() {
        assertEquals(List.of("docker", "exec", "c1", "env", "A=x y", "java", "-cp", "/p/a.jar", "Main", "it's"),
                LaunchAgent.parse("docker exec").command("c1", ENV, ARGV));
    }

    @Test
    void hostPlaceholder() {
        assertEquals(List.of("kubectl", "exec", "pod-0", "--", "env", "A=x y", "java", "-cp", "/p/a.jar", "Main",
                "it's"), LaunchAgent.parse("kubectl exec {host} --").command("pod-0", ENV, ARGV));
    }
}
