package io.mpirunj.testing;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.Request;
import io.mpirunj.Status;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A point-to-point soak: every rank sends a seeded random plan of messages (random destination
 * including itself, tag 0..7, 0 B to 200 KiB with many near the eager limit) while a second thread
 * receives every message addressed to it with a random mix of ANY_SOURCE/ANY_TAG receives,
 * probe-then-receive by source (and by tag) and non-blocking receives. Every rank knows the whole
 * plan, so each message received must be exactly the next one its source addressed to this rank
 * (tag, size and content): anything lost, duplicated, corrupted or reordered is reported with the
 * message's identity. No JUnit here, so the soak also runs as a program ({@link SoakMain}).
 *
 * <p>Deadlock-free by construction: sends are non-blocking in rounds of {@link #ROUND}, and the
 * receiving thread only ever waits for a message already announced by a probe, or with wildcards.
 */
public record Soak(Comm comm, long seed, int perRank) {
    /** Largest message, bytes. */
    public static final int MAX_BYTES = 200 * 1024;
    /** Sends in flight per rank at once. */
    static final int ROUND = 64;
    private static final int TAGS = 8;

    /** What one soak run saw on this rank. */
    public record Result(int sent, int received, long bytesReceived, int eagerLimitStraddlers) {
    }

    /**
     * Runs the soak on {@code comm}: each rank sends {@code perRank} messages of the plan drawn from
     * {@code seed} (the same on every rank). Throws {@link IllegalStateException} on the first wrong message.
     */
    public static Result run(Comm comm, long seed, int perRank, int eagerLimit) throws InterruptedException {
        return new Soak(comm, seed, perRank).run(eagerLimit);
    }

    /** One planned message: to {@code dst}, with {@code tag} and {@code bytes}; its content follows from the key. */
    private record Planned(int dst, int tag, int bytes, long key) {
    }

    /** The messages {@code src} sends, in order. */
    private List<Planned> planOf(int src, int eagerLimit) {
        SplittableRandom rnd = new SplittableRandom(seed * 1_000_003L + src);
        List<Planned> plan = new ArrayList<>(perRank);
        for (int k = 0; k < perRank; k++) {
            int dst = rnd.nextInt(comm.size());
            int tag = rnd.nextInt(TAGS);
            int kind = rnd.nextInt(10);
            int bytes;
            if (kind < 4) {
                bytes = rnd.nextInt(65); // tiny, zero included
            } else if (kind < 6) {
                bytes = rnd.nextInt(eagerLimit + 1);
            } else if (kind < 8) {
                bytes = Math.max(0, Math.min(MAX_BYTES, eagerLimit - 64 + rnd.nextInt(129))); // straddles the limit
            } else {
                bytes = rnd.nextInt(MAX_BYTES + 1);
            }
            plan.add(new Planned(dst, tag, bytes, rnd.nextLong()));
        }
        return plan;
    }

    private Result run(int eagerLimit) throws InterruptedException {
        // What each source will send to this rank, in its order.
        List<List<Planned>> incoming = new ArrayList<>(comm.size());
        int expected = 0;
        for (int src = 0; src < comm.size(); src++) {
            List<Planned> mine = new ArrayList<>();
            for (Planned p : planOf(src, eagerLimit)) {
                if (p.dst() == comm.rank()) {
                    mine.add(p);
                }
            }
            incoming.add(mine);
            expected += mine.size();
        }
        List<Planned> outgoing = planOf(comm.rank(), eagerLimit);
        int straddlers = 0;
        for (Planned p : outgoing) {
            if (Math.abs(p.bytes() - eagerLimit) <= 64) {
                straddlers++;
            }
        }

        AtomicReference<Throwable> receiveFailure = new AtomicReference<>();
        long[] bytesReceived = new long[1];
        int total = expected;
        Thread receiver = new Thread(() -> {
            try {
                bytesReceived[0] = receiveAll(incoming, total);
            } catch (Throwable t) {
                receiveFailure.set(t);
            }
        }, "soak-receiver-" + comm.rank());
        receiver.setDaemon(true);
        receiver.start();
        try {
            sendAll(outgoing);
        } finally {
            receiver.join();
        }
        Throwable t = receiveFailure.get();
        if (t instanceof RuntimeException) {
            throw (RuntimeException) t;
        }
        if (t instanceof Error) {
            throw (Error) t;
        }
        return new Result(outgoing.size(), total, bytesReceived[0], straddlers);
    }

    private void sendAll(List<Planned> outgoing) {
        List<Request> inFlight = new ArrayList<>(ROUND);
        for (Planned p : outgoing) {
            inFlight.add(comm.isend(Buffer.of(content(comm.rank(), p)), p.dst(), p.tag()));
            if (inFlight.size() == ROUND) {
                Request.waitAll(inFlight.toArray(new Request[0]));
                inFlight.clear();
            }
        }
        Request.waitAll(inFlight.toArray(new Request[0]));
    }

    private long receiveAll(List<List<Planned>> incoming, int total) {
        SplittableRandom rnd = new SplittableRandom(seed ^ (0x9E3779B97F4A7C15L * (comm.rank() + 1)));
        int[] next = new int[comm.size()];
        byte[] buf = new byte[MAX_BYTES];
        long bytes = 0;
        for (int n = 0; n < total; n++) {
            Status st;
            switch (rnd.nextInt(4)) {
                case 0:
                    st = comm.recv(Buffer.of(buf), Comm.ANY_SOURCE, Comm.ANY_TAG);
                    break;
                case 1: {
                    Status probed = comm.probe(Comm.ANY_SOURCE, Comm.ANY_TAG);
                    st = comm.recv(Buffer.of(buf), probed.source(), probed.tag());
                    same(probed, st);
                    break;
                }
                case 2: {
                    Status probed = comm.probe(Comm.ANY_SOURCE, Comm.ANY_TAG);
                    st = comm.recv(Buffer.of(buf), probed.source(), Comm.ANY_TAG);
                    same(probed, st);
                    break;
                }
                default:
                    st = comm.irecv(Buffer.of(buf), Comm.ANY_SOURCE, Comm.ANY_TAG).await();
                    break;
            }
            int src = st.source();
            List<Planned> from = incoming.get(src);
            if (next[src] >= from.size()) {
                throw new IllegalStateException("rank " + comm.rank() + ": message " + (next[src] + 1) + " from rank " + src
                        + " (tag " + st.tag() + ", " + st.count() + " B), but it sends only " + from.size()
                        + " here: duplicated or stray");
            }
            Planned want = from.get(next[src]);
            String id = "rank " + comm.rank() + ": message #" + next[src] + " from rank " + src;
            if (st.tag() != want.tag() || st.count() != want.bytes()) {
                throw new IllegalStateException(id + " has tag " + st.tag() + ", " + st.count() + " B (expected: tag "
                        + want.tag() + ", " + want.bytes() + " B): lost or reordered");
            }
            byte[] ok = content(src, want);
            if (!java.util.Arrays.equals(buf, 0, want.bytes(), ok, 0, ok.length)) {
                throw new IllegalStateException(id + " (" + want.bytes() + " B) is corrupted");
            }
            next[src]++;
            bytes += want.bytes();
        }
        return bytes;
    }

    private static void same(Status probed, Status got) {
        if (probed.source() != got.source() || probed.tag() != got.tag() || probed.count() != got.count()) {
            throw new IllegalStateException("probe announced " + probed + " but the receive got " + got);
        }
    }

    /** The bytes of message {@code p} from {@code src}: a stream drawn from its key. */
    static byte[] content(int src, Planned p) {
        byte[] b = new byte[p.bytes()];
        ByteBuffer out = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        long x = p.key() ^ src;
        while (out.remaining() >= 8) {
            out.putLong(x);
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        while (out.hasRemaining()) {
            out.put((byte) x);
            x >>>= 8;
        }
        return b;
    }
}
