package io.mpirunj.benchmarks.osu;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Request;
import io.mpirunj.runtime.JvmActivity;
import java.io.PrintStream;
import java.util.function.IntFunction;

/**
 * osu_bw: bandwidth from rank 0 to rank 1 (exactly two ranks, as OSU), in OSU's layout. As OSU:
 * each iteration rank 0 posts a window of {@code -W} non-blocking sends (default 64), rank 1 the
 * matching receives, and rank 1 acknowledges the window with a 1-byte message; bandwidth =
 * size x window x iterations / elapsed, in MB/s (10^6 bytes per second). {@code -f} adds nothing.
 */
public final class OsuBw {
    private static final int TAG = 100;
    private static final int ACK_TAG = 101;

    private OsuBw() {
    }

    public static void main(String[] args) {
        OsuRun.main(OsuBenchmark.BW, args, OsuBw::run);
    }

    static void run(Comm world, OsuOptions o, PrintStream out) {
        OsuRun.requireTwoRanks(world, o.benchmark());
        OsuRun.printHeader(world, o, OsuRun.conditions(world, o, "window " + o.window()), out);
        IntFunction<Buffer> messages = o.messageBuffers();
        OsuRun.warmUpPointToPoint(world, o, size -> windows(world, messages.apply(size), o.window(), 1, 0));
        for (int size : o.sizes()) {
            int iters = o.iterations(size);
            world.barrier();
            JvmActivity before = JvmActivity.now();
            long ns = windows(world, messages.apply(size), o.window(), o.warmup(size), iters);
            OsuRun.reportCompiles(world, o, size, before);
            if (world.rank() == 0) {
                double mbPerS = (double) size / 1e6 * iters * o.window() / (ns / 1e9);
                out.println(OsuTable.row(o.benchmark(), o.full(), OsuTable.Row.of(size, mbPerS)));
                out.flush();
            }
        }
    }

    /** {@code warmup + iters} windows; returns the time of the timed ones on rank 0 (ns). */
    private static long windows(Comm world, Buffer buf, int window, int warmup, int iters) {
        byte[] ack = new byte[1];
        Request[] requests = new Request[window];
        long start = 0;
        for (int i = 0; i < warmup + iters; i++) {
            if (i == warmup) {
                start = System.nanoTime();
            }
            if (world.rank() == 0) {
                for (int j = 0; j < window; j++) {
                    requests[j] = world.isend(buf, 1, TAG);
                }
                Request.waitAll(requests);
                world.recv(Buffer.of(ack), 1, ACK_TAG);
            } else if (world.rank() == 1) {
                for (int j = 0; j < window; j++) {
                    requests[j] = world.irecv(buf, 0, TAG);
                }
                Request.waitAll(requests);
                world.send(Buffer.of(ack), 0, ACK_TAG);
            }
        }
        return System.nanoTime() - start;
    }
}
