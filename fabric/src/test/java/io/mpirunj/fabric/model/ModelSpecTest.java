package io.mpirunj.fabric.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ModelSpecTest {

    @Test
    void constantsAreSizeIndependent() {
        CostModel model = ModelSpec.parse("hold=20,end=55");
        assertEquals(20, model.tHold(0));
        assertEquals(20, model.tHold(1 << 20));
        assertEquals(55, model.tEnd(4096));
        assertEquals(1, model.ports());
        assertTrue(model.uniform());
    }

    @Test
    void linearTermsScaleWithSize() {
        CostModel model = ModelSpec.parse("hold=20+0.02m,end=55+0.07m");
        assertEquals(20 + 0.02 * 1000, model.tHold(1000), 1e-12);
        assertEquals(55 + 0.07 * 1000, model.tEnd(1000), 1e-12);
        assertEquals(20, model.tHold(0));
    }

    @Test
    void logPHoldIsGapAndEndIsLatencyPlusTwoOverheads() {
        CostModel model = ModelSpec.parse("logp:L=6,o=2,g=4");
        assertInstanceOf(LogPModel.class, model);
        assertEquals(4, model.tHold(123));
        assertEquals(10, model.tEnd(123));
    }

    @Test
    void cpusIsOptionalAndDefaultsToOnePerNode() {
        assertEquals(0, ModelSpec.parse("hold=10,end=40").cpus());
        assertEquals(2, ModelSpec.parse("hold=10,end=40,cpus=2").cpus());
        assertFalse(ModelSpec.parse("hold=10,end=40").equals(ModelSpec.parse("hold=10,end=40,cpus=2")));
    }

    @Test
    void wakeIsOptionalAndOnlyWithSharedCpus() {
        assertEquals(0, ModelSpec.parse("hold=10,end=40,cpus=2").tWake(1024));
        CostModel model = ModelSpec.parse("hold=10,end=40,cpus=2,wake=30+0.001m");
        assertEquals(30 + 1.024, model.tWake(1024), 1e-12);
        assertEquals(40, model.tEnd(1024)); // wake is not part of t_end: it delays a forward, not a delivery
        assertFalse(model.equals(ModelSpec.parse("hold=10,end=40,cpus=2")));
    }

    @Test
    void rendezvousIsOptionalAndNeverByDefault() {
        assertEquals(Long.MAX_VALUE, ModelSpec.parse("hold=10,end=40").rendezvousAbove());
        assertEquals(Long.MAX_VALUE, ModelSpec.parse("logp:L=6,o=2,g=4").rendezvousAbove());
        CostModel model = ModelSpec.parse("hold=10,end=40,rndv=2097152");
        assertEquals(2097152, model.rendezvousAbove());
        assertEquals(40, model.tEnd(4 << 20)); // the handshake is not part of t_end: it delays when the data leaves
        assertFalse(model.equals(ModelSpec.parse("hold=10,end=40")));
        assertEquals(0, ModelSpec.parse("hold=10,end=40,rndv=0").rendezvousAbove()); // every non-empty message
    }

    @Test
    void portsIsOptionalOnBothForms() {
        assertEquals(3, ModelSpec.parse("logp:L=6,o=2,g=4,ports=3").ports());
        assertEquals(2, ModelSpec.parse("hold=10,end=40,ports=2").ports());
    }

    @Test
    void whitespaceAndKeyOrderDoNotMatter() {
        assertEquals(ModelSpec.parse("hold=20+0.02m,end=55"), ModelSpec.parse(" end = 55 , hold = 20+0.02m "));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "hold=20,end=55                  | hold=20,end=55",
        "hold=20+0.02m,end=55+0.07m      | hold=20+0.02m,end=55+0.07m",
        "hold=20.0+0m,end=55.50          | hold=20,end=55.5",
        "hold=0.5m,end=1e2               | hold=0.5m,end=100",
        "hold=10,end=40,ports=1          | hold=10,end=40",
        "hold=10,end=40,ports=4          | hold=10,end=40,ports=4",
        "logp:L=6,o=2,g=4                | logp:L=6,o=2,g=4",
        "LOGP:g=4.0,o=2,L=6.25           | logp:L=6.25,o=2,g=4",
        "logp:L=6,o=2,g=4,ports=2        | logp:L=6,o=2,g=4,ports=2",
        "cpus=2,hold=10,end=40,ports=1   | hold=10,end=40,cpus=2",
        "hold=10,end=40,ports=2,cpus=4   | hold=10,end=40,ports=2,cpus=4",
        "wake=60,cpus=2,hold=10,end=40   | hold=10,end=40,cpus=2,wake=60",
        "hold=10,end=40,cpus=2,wake=0    | hold=10,end=40,cpus=2",
        "hold=10,end=40,cpus=2,wake=5+0.001m | hold=10,end=40,cpus=2,wake=5+0.001m",
        "rndv=65536,hold=10,end=40       | hold=10,end=40,rndv=65536",
        "hold=10,end=40,rndv=0,cpus=2,wake=3 | hold=10,end=40,cpus=2,wake=3,rndv=0",
    })
    void toStringIsCanonicalAndRoundTrips(String spec, String canonical) {
        CostModel model = ModelSpec.parse(spec);
        assertEquals(canonical, model.toString());
        CostModel again = ModelSpec.parse(model.toString());
        assertEquals(model, again);
        assertEquals(canonical, again.toString());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "hold=20                       | missing 'end='",
        "end=55                        | missing 'hold='",
        "hold=20,end=x                 | bad token 'end=x'",
        "hold=-1,end=5                 | bad token 'hold=-1'",
        "hold=20+m,end=55              | bad token 'hold=20+m'",
        "hold=20+0.02,end=55           | bad token 'hold=20+0.02'",
        "hold=20,end=55,tick=3         | bad token 'tick=3'",
        "hold=20,end=55,ports=0        | bad token 'ports=0'",
        "hold=20,end=55,ports=two      | bad token 'ports=two'",
        "hold=20,end=55,cpus=0         | bad token 'cpus=0' (expected: hold=A[+Bm],end=C[+Dm][,ports=P][,cpus=C >= 1[,wake=W[+Xm]]][,rndv=R])",
        "hold=20,end=55,cpus=1.5       | bad token 'cpus=1.5'",
        "logp:L=6,o=2,g=4,cpus=2       | bad token 'cpus=2'",
        "hold=20,end=55,wake=30        | wake= needs cpus=C",
        "hold=20,end=55,cpus=2,wake=-3 | bad token 'wake=-3'",
        "logp:L=6,o=2,g=4,wake=2       | bad token 'wake=2'",
        "hold=20,end=55,rndv=-1        | bad token 'rndv=-1' (expected: hold=A[+Bm],end=C[+Dm][,ports=P][,cpus=C[,wake=W[+Xm]]][,rndv=R bytes >= 0])",
        "hold=20,end=55,rndv=64k       | bad token 'rndv=64k'",
        "hold=20,end=55,rndv=1.5       | bad token 'rndv=1.5'",
        "logp:L=6,o=2,g=4,rndv=8       | bad token 'rndv=8'",
        "hold=20,hold=30,end=55        | 'hold' given twice",
        "hold=20;end=55                | bad token 'hold=20;end=55'",
        "hold=20,end=55,               | bad token ''",
        "hold=1e400,end=5              | bad token 'hold=1e400'",
        "logp:L=6,o=2                  | missing 'g='",
        "logp:L=6,o=2,g=4,P=8          | bad token 'P=8'",
        "logp:l=6,o=2,g=4              | bad token 'l=6'",
        "logp:L=6,o=2,g=4m             | bad token 'g=4m'",
        "loggp:L=6,o=2,g=4             | bad token 'loggp:L=6'",
        "banana                        | bad token 'banana'",
        "hold=1,end=0                  | end=0 gives an empty message t_end 0 (expected: end=C[+Dm] with C > 0",
        "hold=1,end=0+0m               | end=0+0m gives an empty message t_end 0",
        "hold=1,end=0.07m              | end=0.07m gives an empty message t_end 0",
        "hold=0,end=0.0                | end=0.0 gives",
        "logp:L=0,o=0,g=4              | L=0, o=0 give t_end = L + 2o = 0 (expected: L + 2o > 0",
    })
    void badSpecsNameTheTokenAndTheExpectedForm(String spec, String expectedFragment) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ModelSpec.parse(spec));
        assertTrue(e.getMessage().contains(expectedFragment), e.getMessage());
        assertTrue(e.getMessage().contains("expected: "), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
    }

    /** SPEC 1: t_hold may exceed t_end (OPT-tree then takes the full DP); only a t_end of 0 is refused. */
    @Test
    void holdAboveEndIsAModelButAZeroEndIsNot() {
        CostModel model = ModelSpec.parse("hold=50,end=10");
        assertEquals(50, model.tHold(0));
        assertEquals(10, model.tEnd(0));
        assertEquals(4, ModelSpec.parse("logp:L=0,o=0.5,g=4").tHold(0)); // g > L + 2o
        assertEquals(1, ModelSpec.parse("logp:L=0,o=0.5,g=4").tEnd(0));
        assertEquals(0.5, ModelSpec.parse("hold=0,end=0.5").tEnd(0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   "})
    void emptySpecIsRejected(String spec) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ModelSpec.parse(spec));
        assertTrue(e.getMessage().contains(ModelSpec.PARAMETERIZED_FORM), e.getMessage());
    }

    @Test
    void nullSpecIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> ModelSpec.parse(null));
    }
}
