package io.mpirunj.collectives.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Op;
import io.mpirunj.collectives.builders.AlltoallBuilders;
import io.mpirunj.collectives.builders.BarrierBuilders;
import io.mpirunj.collectives.builders.ReductionBuilders;
import io.mpirunj.collectives.multicast.MulticastAlgorithms;
import io.mpirunj.collectives.sim.SimulationJson;
import io.mpirunj.collectives.sim.Simulator;
import io.mpirunj.fabric.model.CostModel;
import io.mpirunj.fabric.model.ModelSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Schedules written as JSON, read back, re-simulated and re-written are the same bytes. */
class ScheduleJsonTest {

    private static final CostModel MODEL = ModelSpec.parse("hold=10,end=40");

    private static List<Schedule> samples() {
        List<Schedule> out = new ArrayList<>();
        for (MulticastAlgorithms.Entry e : MulticastAlgorithms.all()) {
            out.add(MulticastAlgorithms.bcast(e.name(), 7, 2, 1000, MODEL));
        }
        out.add(AlltoallBuilders.bruck(6, 16, null));
        long[][] sizes = {{0, 4, 8}, {12, 0, 4}, {8, 8, 0}};
        out.add(AlltoallBuilders.pairwise(3, 0, sizes));
        out.add(ReductionBuilders.recursiveDoublingAllreduce(5, 40, Op.SUM));
        out.add(ReductionBuilders.binomialReduce(6, 4, 8, Op.MAX));
        out.add(BarrierBuilders.dissemination(5));
        out.add(Schedule.builder(Collective.MULTICAST, "explicit", 3, 0, 8).note("hand-made")
                .send(0, 1, 1, Block.WHOLE_ONLY, new int[] {0, 5, 1}, 2).recv(1, 0, 1)
                .send(0, 2, 1).recvFirstOf(2, new int[] {0, 1}, 2, Block.WHOLE_ONLY).send(1, 2, 2).build());
        return out;
    }

    @Test
    void everyScheduleRoundTripsByteForByte() {
        for (Schedule s : samples()) {
            String json = ScheduleJson.write(s);
            Schedule back = ScheduleJson.read(json);
            assertEquals(json, ScheduleJson.write(back), s.toString());
            assertEquals(s.describe(), back.describe(), s.toString());
            assertEquals(List.of(), Verifier.verify(back), s.toString());
            assertEquals(SimulationJson.write(Simulator.event(s, MODEL)), SimulationJson.write(Simulator.event(back, MODEL)),
                    s.toString());
        }
    }

    /** A simulation's export names its model: readDocument gives it beside the schedule read gives, from one parse. */
    @Test
    void aDocumentIsTheScheduleAndTheModelItNames() {
        Schedule s = MulticastAlgorithms.bcast("binomial", 5, 1, 64, MODEL);
        String exported = SimulationJson.writeWithPrograms(Simulator.event(s, MODEL));
        ScheduleJson.Document d = ScheduleJson.readDocument(exported);
        assertEquals(ScheduleJson.write(ScheduleJson.read(exported)), ScheduleJson.write(d.schedule()));
        assertEquals(MODEL.toString(), d.model());
        assertEquals(null, ScheduleJson.readDocument(ScheduleJson.write(s)).model());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ScheduleJson.readDocument("[1]"));
        assertEquals(assertThrows(IllegalArgumentException.class, () -> ScheduleJson.read("[1]")).getMessage(),
                e.getMessage());
    }

    @Test
    void aBrokenScheduleIsRefusedNamingTheRankAndInstruction() throws Exception {
        Schedule s = MulticastAlgorithms.bcast("binomial", 4, 0, 8, MODEL);
        String json = ScheduleJson.write(s);
        // Drop rank 3's receive: the root's send to 3 has no receiver and rank 3 never gets the buffer.
        com.fasterxml.jackson.databind.node.ObjectNode tree = (com.fasterxml.jackson.databind.node.ObjectNode)
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
        ((com.fasterxml.jackson.databind.node.ArrayNode) tree.get("programs").get(3)).removeAll();
        Schedule noReceive = ScheduleJson.read(tree.toString());
        List<String> errors = Verifier.verify(noReceive);
        assertTrue(errors.stream().anyMatch(e -> e.startsWith("unmatched send: rank ") && e.contains("#")), errors::toString);
        assertTrue(errors.contains("missing delivery: rank 3 never receives whole"), errors::toString);

        tree = (com.fasterxml.jackson.databind.node.ObjectNode) new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(json);
        ((com.fasterxml.jackson.databind.node.ArrayNode) tree.get("programs").get(0)).removeAll();
        List<String> noSender = Verifier.verify(ScheduleJson.read(tree.toString()));
        assertTrue(noSender.stream().anyMatch(e -> e.matches("unmatched receive: rank \\d #0 \\(RECV whole <- 0 .*"
                + "waits for a message from rank 0 that is never sent")), noSender::toString);

        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> ScheduleJson.read(json.replace("\"op\" : \"recv\"", "\"op\" : \"receive\"")));
        assertTrue(bad.getMessage().startsWith("rank 1 instruction #0: unknown op 'receive'"), bad.getMessage());
        IllegalArgumentException syntax = assertThrows(IllegalArgumentException.class,
                () -> ScheduleJson.read(json.substring(0, json.length() / 2)));
        assertTrue(syntax.getMessage().startsWith("malformed JSON at line "), syntax.getMessage());
    }

    @Test
    void anUnknownReductionIsRefusedNamingWhereAndTheKnownOnes() {
        IllegalArgumentException bad = refusedEdited("\"reduce\" : \"max\"", "\"reduce\" : \"maximum\"");
        assertTrue(bad.getMessage().matches("rank \\d+ instruction #\\d+: unknown reduction 'maximum' \\(expected one of: .*max.*\\)"),
                bad.getMessage());
    }

    /** A rank count the programs do not bear out is refused before anything is sized by it (was an OutOfMemoryError). */
    @Test
    void aRankCountUnlikeTheProgramsIsRefusedAtOnce() {
        IllegalArgumentException bad = refusedEdited("\"ranks\" : 4", "\"ranks\" : 2000000000");
        assertEquals("\"programs\" must be an array of 2000000000 programs, one per rank (\"ranks\": 2000000000)",
                bad.getMessage());
    }

    /** Hand edits a user's trial found taken or named in the code's terms: each is one line in the file's. */
    @Test
    void handEditsAreRefusedInTheFilesOwnTerms() {
        assertEquals("schedule: \"bytes\": -5 (expected: >= 0)", refusedEdited("\"bytes\" : 40", "\"bytes\" : -5")
                .getMessage());
        assertTrue(refusedEdited("\"ranks\" : 4", "\"ranks\" : 4, \"rank\" : 4").getMessage().startsWith(
                "unknown field \"rank\" (expected one of: algorithm, bytes, "), "a misspelt field was ignored");
        assertTrue(refusedEdited("\"step\" : 1", "\"step\" : -3").getMessage().matches(
                "rank \\d+ instruction #\\d+: \"step\": -3 \\(expected: 0..2147483647\\)"));
        // a review: checked as a long, then cast (4294967295 became step -1, 4294967296 root 0); "x" became port 0
        assertTrue(refusedEdited("\"step\" : 1", "\"step\" : 4294967295").getMessage().endsWith(
                "\"step\": 4294967295 (expected: 0..2147483647)"));
        assertEquals("schedule: \"root\": 4294967296 (expected: -1..2147483647)",
                refusedEdited("\"root\" : -1", "\"root\" : 4294967296").getMessage());
        assertTrue(refusedEdited("\"peer\" : 1", "\"peer\" : \"1\"").getMessage().matches(
                "rank \\d+ instruction #\\d+: \"peer\" must be a whole number \\(got \"1\"\\)"));
        // an auditor's: fields inside an instruction or a block, and a note that is no text, were dropped in silence
        assertTrue(refusedEdited("\"peer\" : 1", "\"peer\" : 1, \"bogus\" : 5").getMessage().matches(
                "rank \\d+ instruction #\\d+ \\((send|recv)\\): unknown field \"bogus\" \\(expected one of: "
                        + "(blocks, op, path, peer, port, step|blocks, op, peer, step)\\)"));
        assertTrue(refusedEdited("\"range\" : [", "\"junk\" : 1, \"range\" : [").getMessage().matches(
                "rank \\d+ instruction #\\d+: bad block \\{\"junk\":1,\"range\":.*"));
        assertEquals("schedule: \"note\" must be text (got 17)",
                refusedEdited("\"bytes\" : 40", "\"bytes\" : 40, \"note\" : 17").getMessage());
        assertEquals("empty file (expected: a schedule, {\"op\": ..., \"programs\": [...]})",
                assertThrows(IllegalArgumentException.class, () -> ScheduleJson.read("\n")).getMessage());
    }

    /** A 4-rank allreduce's JSON with {@code text} replaced by {@code edit}: what reading it throws. */
    private static IllegalArgumentException refusedEdited(String text, String edit) {
        String json = ScheduleJson.write(ReductionBuilders.recursiveDoublingAllreduce(4, 40, Op.MAX));
        assertTrue(json.contains(text), json);
        return assertThrows(IllegalArgumentException.class, () -> ScheduleJson.read(json.replace(text, edit)));
    }
}
