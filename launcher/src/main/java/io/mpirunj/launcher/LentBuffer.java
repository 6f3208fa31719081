package io.mpirunj.launcher;

import java.io.ByteArrayOutputStream;

/**
 * A growing byte buffer whose array is lent out as it is (no copy per line): the unfinished line a
 * {@link LineSplitter} holds, and a line {@link RankOutput} gathers before its one write. Read the array only up to
 * {@link #size()}, and before the next write or reset.
 */
final class LentBuffer extends ByteArrayOutputStream {
    LentBuffer() {
        super(128);
    }

    byte[] array() {
        return buf;
    }
}
