package io.mpirunj.collectives.baseline;

import io.mpirunj.Buffer;
import io.mpirunj.Op;
import io.mpirunj.Request;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/**
 * Exscan (exclusive prefix reduction; rank 0's result is left alone), linear or by recursive
 * doubling: see {@link PrefixReduction}.
 */
public final class PrefixExscan extends PrefixReduction implements CollectiveAlgorithm.Exscan {
    private PrefixExscan(boolean linear) {
        super(true, linear);
    }

    public static PrefixExscan linear() {
        return new PrefixExscan(true);
    }

    public static PrefixExscan recursiveDoubling() {
        return new PrefixExscan(false);
    }

    @Override
    public void exscan(CollChannel ch, Buffer send, Buffer recv, Op op) {
        go(true, ch, send, recv, op);
    }

    @Override
    public Request iexscan(CollChannel ch, Buffer send, Buffer recv, Op op) {
        return go(false, ch, send, recv, op);
    }
}
