package io.mpirunj.benchmarks.papers;

/** The five source papers (text in {@code shared/papers/}, digest in SPEC.md), named P and their number. */
public enum Paper {
    P000("Lee 1999", "J.-Y. Lee, Optimal multicast algorithm and architecture-dependent tuning on the "
            + "parameterized communication model (1999)"),
    P001("Kim, Maeng, Cho 2000", "Kim, Maeng, Cho, Efficient all-to-all personalized communication "
            + "algorithms in wormhole networks (2000)"),
    P002("Gu, Li, Liu 2002", "Gu, Li, Liu, Fibonacci series-based multicast algorithm (2002)"),
    P003("Cha, Lee, Han, Yu 2004", "Cha, Lee, Han, Yu, Two-tree collective communication in grid "
            + "computing systems (2004)"),
    P004("Kim, Lee, Lee 2001", "Kim, Lee, Lee, All-port broadcasting algorithms on wormhole routed "
            + "star graph networks (2001)");

    private final String shortName;
    private final String citation;

    Paper(String shortName, String citation) {
        this.shortName = shortName;
        this.citation = citation;
    }

    /** The paper's number in {@code shared/papers/}, e.g. "000". */
    public String number() {
        return name().substring(1);
    }

    /** Authors and year, e.g. "Lee 1999". */
    public String shortName() {
        return shortName;
    }

    /** Authors, title and year. */
    public String citation() {
        return citation;
    }
}
