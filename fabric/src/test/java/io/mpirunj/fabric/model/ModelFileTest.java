package io.mpirunj.fabric.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelFileTest {

    @Test
    void aWrittenModelReadsBackThroughModelSpec(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("model.json");
        ModelFile.write(file, new ModelFile.Document(ModelFile.FORMAT, "us", new ModelFile.Fit(20, 0.02, 0.999),
                new ModelFile.Fit(55, 0.07, null), 2, new ModelFile.LogP(50, 2.5, 20), new long[] {1024},
                new double[] {40.48}, new double[] {126.68}, "test"));
        ParameterizedModel m = (ParameterizedModel) ModelSpec.parse(file.toString());
        assertEquals(new LinearCost(20, 0.02), m.hold());
        assertEquals(new LinearCost(55, 0.07), m.end());
        assertEquals(2, m.ports());
        assertEquals(20 + 0.02 * 1000, m.tHold(1000), 1e-9);
        ModelFile.Document d = ModelFile.readDocument(file);
        assertEquals(2.5, d.logp().overhead());
        assertEquals("test", d.source());
    }

    private static String error(Path dir, String name, String content) throws Exception {
        Path file = dir.resolve(name);
        if (content != null) {
            Files.writeString(file, content);
        }
        String message = assertThrows(IllegalArgumentException.class, () -> ModelSpec.parse(file.toString()))
                .getMessage();
        assertFalse(message.contains("\n"), message);
        return message.replace(file.toString(), "F");
    }

    @Test
    void badModelFilesAreOneClearLine(@TempDir Path dir) throws Exception {
        assertEquals("model file F: no such file", error(dir, "missing.json", null));
        assertEquals("model file F: format 'mpirunj-pairs/1' (expected: \"format\": \"mpirunj-model/1\")",
                error(dir, "pairs.json", "{\"format\":\"mpirunj-pairs/1\",\"hold\":{\"a\":1,\"b\":0},"
                        + "\"end\":{\"a\":1,\"b\":0}}"));
        assertEquals("model file F: missing \"end\" (expected: {\"a\": .., \"b\": ..}, end = a + b*m)",
                error(dir, "noend.json", "{\"format\":\"mpirunj-model/1\",\"hold\":{\"a\":1,\"b\":0}}"));
        assertEquals("model file F: \"hold\" a=-1.0, b=0.0 (expected: finite numbers >= 0)",
                error(dir, "negative.json", "{\"format\":\"mpirunj-model/1\",\"hold\":{\"a\":-1,\"b\":0},"
                        + "\"end\":{\"a\":1,\"b\":0}}"));
        String notJson = error(dir, "text.json", "hold=20,end=55");
        assertEquals(true, notJson.startsWith("model file F: not a model file ("), notJson);
        String unknown = error(dir, "extra.json", "{\"format\":\"mpirunj-model/1\",\"hold\":{\"a\":1,\"b\":0},"
                + "\"end\":{\"a\":1,\"b\":0},\"colour\":\"red\"}");
        assertEquals(true, unknown.contains("colour"), unknown);
    }
}
