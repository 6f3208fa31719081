package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Op;
import io.mpirunj.Request;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/** Scan (inclusive prefix reduction), linear or by recursive doubling: see {@link PrefixReduction}. */
public final class PrefixScan extends PrefixReduction implements CollectiveAlgorithm.Scan {
    private PrefixScan(boolean linear) {
        super(false, linear);
    }

    public static PrefixScan linear() {
        return new PrefixScan(true);
    }

    public static PrefixScan recursiveDoubling() {
        return new PrefixScan(false);
    }

    @Override
    public void scan(CollChannel ch, Buffer send, Buffer recv, Op op) {
        go(true, ch, send, recv, op);
    }

    @Override
    public Request iscan(CollChannel ch, Buffer send, Buffer recv, Op op) {
        return go(false, ch, send, recv, op);
    }
}
