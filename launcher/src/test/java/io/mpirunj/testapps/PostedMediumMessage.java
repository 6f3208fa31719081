package io.mpirunj.testapps;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Mpi;

/**
 * Rank 1 posts a receive for a 32 KiB message before rank 0 sends it (a barrier between), so over TCP the
 * eager message is streamed straight into the posted receive; prints "ok" when the bytes arrived intact.
 */
public final class PostedMediumMessage {
    static final int BYTES = 32 * 1024;

    private PostedMediumMessage() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        byte[] buf = new byte[BYTES];
        if (world.rank() == 1) {
            var posted = world.irecv(Buffer.of(buf), 0, 7);
            world.barrier();
            posted.await();
            for (int i = 0; i < BYTES; i++) {
                if (buf[i] != (byte) (i * 31)) {
                    throw new IllegalStateException("byte " + i + " is " + buf[i]);
                }
            }
            System.out.println("ok");
        } else if (world.rank() == 0) {
            for (int i = 0; i < BYTES; i++) {
                buf[i] = (byte) (i * 31);
            }
            world.barrier();
            world.send(Buffer.of(buf), 1, 7);
        } else {
            world.barrier();
        }
        Mpi.finish();
    }
}
