package io.mpirunj.collectives.runner;

import io.mpirunj.Buffer;
import io.mpirunj.collectives.schedule.Block;
import java.util.Objects;

/**
 * The caller's buffers a schedule's {@linkplain Block.Role roles} name: the send and the receive
 * buffer (one buffer for a bcast, which is both), and, for the "v" collectives, where each
 * all-to-all block lies in them: element counts and displacements indexed by the block's peer
 * (null: blocks packed in the schedule's {@link io.mpirunj.collectives.schedule.Schedule#pairBytes}
 * sizes), or, for a {@link io.mpirunj.collectives.schedule.Block.Range} of a "v" schedule built with
 * one-byte blocks, by the range's offset (gatherv, scatterv, allgatherv). With counts, one schedule
 * serves every call whatever its counts. Scratch memory is the runner's own.
 */
public record ScheduleBuffers(Buffer send, Buffer recv, int[] sendCounts, int[] sendDispls, int[] recvCounts,
        int[] recvDispls) {

    public ScheduleBuffers {
        Objects.requireNonNull(send, "send");
        Objects.requireNonNull(recv, "recv");
        if ((sendCounts == null) != (sendDispls == null) || (recvCounts == null) != (recvDispls == null)) {
            throw new IllegalArgumentException("counts and displacements come together");
        }
    }

    /** One buffer that is both the send and the receive buffer (bcast, multicast). */
    public static ScheduleBuffers of(Buffer buf) {
        return new ScheduleBuffers(buf, buf, null, null, null, null);
    }

    /** A send and a receive buffer with packed blocks. */
    public static ScheduleBuffers of(Buffer send, Buffer recv) {
        return new ScheduleBuffers(send, recv, null, null, null, null);
    }

    Buffer buffer(Block.Role role) {
        return role == Block.Role.SEND ? send : recv;
    }

    /** Element counts of the role's all-to-all blocks, or null when packed. */
    int[] counts(Block.Role role) {
        return role == Block.Role.SEND ? sendCounts : role == Block.Role.RECV ? recvCounts : null;
    }

    /** Element displacements of the role's all-to-all blocks, or null when packed. */
    int[] displs(Block.Role role) {
        return role == Block.Role.SEND ? sendDispls : role == Block.Role.RECV ? recvDispls : null;
    }
}
