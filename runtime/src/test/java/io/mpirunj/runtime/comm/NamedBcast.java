package io.mpirunj.runtime.comm;

import io.mpirunj.Buffer;
import io.mpirunj.Request;
import io.mpirunj.runtime.spi.CollChannel;
import io.mpirunj.runtime.spi.CollectiveAlgorithm;

/** A bcast algorithm that is only a name, for tests of what selection and reports do with names. */
record NamedBcast(String name) implements CollectiveAlgorithm.Bcast {
    @Override
    public String description() {
        return name;
    }

    @Override
    public Request bcast(CollChannel ch, Buffer buf, int root, boolean blocking) {
        throw new UnsupportedOperationException("a name only");
    }
}
