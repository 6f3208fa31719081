package io.mpirunj.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.testapps.StarBcastCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code MPIRUNJ_*} variables the ranks read at start, checked by the launcher before any rank starts
 * ({@link RankSettings}): a bad value is one line naming the variable and exit status 2, as a bad option is.
 * Before, every rank started and died with a stack trace (naming {@code --model} for MPIRUNJ_MODEL), rc 1.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RankEnvironmentTest {
    private static final String TESTAPPS = LauncherRun.classpathOf(StarBcastCheck.class);

    @TempDir
    Path dir;

    private static Map<String, String> env(String name, String value) {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put(name, value);
        return env;
    }

    private static LauncherRun run(Map<String, String> env, boolean threads, String... more) {
        List<String> args = new ArrayList<>(threads ? List.of("--threads") : List.of());
        args.addAll(List.of("-np", "2"));
        args.addAll(List.of(more));
        args.addAll(List.of("-cp", TESTAPPS, StarBcastCheck.class.getName()));
        return LauncherRun.of(env, args.toArray(String[]::new));
    }

    private static void assertOneLine(LauncherRun run, String start) {
        assertEquals(UsageException.EXIT_CODE, run.exitCode(), run::toString);
        assertTrue(run.err().startsWith("mpirun-j: " + start), run::toString);
        assertEquals(1, run.err().strip().lines().count(), run::toString);
        assertEquals("", run.out(), run::toString);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void badRankSettingsAreOneLineNamingTheVariable(boolean threads) {
        String[][] cases = {
            {"MPIRUNJ_MODEL", "garbage", "MPIRUNJ_MODEL=garbage: model spec 'garbage'"},
            {"MPIRUNJ_COLL_RULES", "/nonexist", "MPIRUNJ_COLL_RULES=/nonexist: /nonexist: cannot read"},
            {"MPIRUNJ_EAGER_CREDIT_BYTES", "-1", "MPIRUNJ_EAGER_CREDIT_BYTES=-1 (expected: a non-negative integer)"},
            {"MPIRUNJ_EAGER_LIMIT", "64k", "MPIRUNJ_EAGER_LIMIT=64k (expected: a non-negative integer)"},
            {"MPIRUNJ_TRANSPORT", "udp", "MPIRUNJ_TRANSPORT=udp (expected: auto, tcp or local)"},
            {"MPIRUNJ_COLL", "bcast=zzz", "MPIRUNJ_COLL=bcast=zzz: unknown bcast algorithm 'zzz'"},
            {"MPIRUNJ_FABRIC", "garbage", "MPIRUNJ_FABRIC=garbage: topology spec 'garbage'"},
            {"MPIRUNJ_FABRIC_PARAMS", "ss=1", "MPIRUNJ_FABRIC_PARAMS=ss=1: fabric emulation needs a fabric"},
            {"MPIRUNJ_PLACEMENT", "0/0", "MPIRUNJ_PLACEMENT=0/0: a placement needs a fabric (MPIRUNJ_FABRIC or --fabric)"},
            {"MPIRUNJ_TRACE", "/nonexist/t.jsonl", "MPIRUNJ_TRACE=/nonexist/t.jsonl: no such directory /nonexist"},
        };
        for (String[] c : cases) {
            assertOneLine(run(env(c[0], c[1]), threads), c[2]);
        }
    }

    /** Rank processes read the rendezvous timeout from the environment the launcher hands down. */
    @Test
    void processesRefuseABadRendezvousTimeout() {
        assertOneLine(run(env("MPIRUNJ_RENDEZVOUS_TIMEOUT_MS", "1m"), false),
                "MPIRUNJ_RENDEZVOUS_TIMEOUT_MS=1m (expected: a non-negative integer)");
    }

    /** -x sets a rank's variable as the environment does, and is checked alike. */
    @Test
    void exportedRankSettingsAreCheckedToo() {
        assertOneLine(run(System.getenv(), false, "-x", "MPIRUNJ_MODEL=hold=fast"), "MPIRUNJ_MODEL=hold=fast: ");
    }

    /** The option wins over the variable: the variable's value is then not the ranks' and not refused. */
    @Test
    void anOptionOverridesItsVariable() {
        LauncherRun run = run(env("MPIRUNJ_MODEL", "garbage"), true, "--model", "hold=1,end=100");
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.out().contains("passed bcast on 2 ranks"), run::toString);
    }

    /** With --threads, MPIRUNJ_COLL_RULES drives the job as --coll-rules does (it was silently ignored). */
    @Test
    void threadsRunTheRulesOfTheVariable() throws Exception {
        Path rules = Files.writeString(dir.resolve("rules.json"), """
                {"rules": [{"op": "bcast", "algorithm": "linear-p2p"}]}
                """);
        LauncherRun run = run(env("MPIRUNJ_COLL_RULES", rules.toString()), true, "--coll-report");
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.out().contains("passed bcast on 2 ranks"), run::toString);
        assertTrue(run.err().lines().anyMatch(l -> l.replaceFirst("^\\[0\\] ", "")
                .matches("bcast\\s.*\\slinear-p2p\\s+rules\\s.*")), run::toString);
    }
}
