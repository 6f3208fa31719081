package io.mpirunj.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mpirunj.Buffer;
import io.mpirunj.Comm;
import io.mpirunj.ElementType;
import io.mpirunj.Request;
import io.mpirunj.Status;
import io.mpirunj.TruncationException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.zip.CRC32;

/**
 * Point-to-point behaviours every transport must show, as plain SPMD bodies: run as threads by
 * {@link LocalCluster} and as processes by the launcher's tests (through {@link ScenarioMain}).
 * They use only point-to-point, so they need no collective algorithms.
 */
public final class P2pScenarios {
    /** Above the default eager limit, so these messages take the rendezvous path. */
    static final int LARGE_BYTES = 200_000;

    private P2pScenarios() {
    }

    /** All scenario names, for parameterised tests. */
    public static List<String> names() {
        return List.of("ordering", "wildcards", "probeUnknownSize", "communicatorIsolation", "bufferTypes",
                "sixteenMiB", "unexpectedFlood", "truncation", "nonBlocking", "selfSend", "procNullHalo");
    }

    /** Runs the named scenario. */
    public static void run(String name, Comm world) throws Exception {
        try {
            P2pScenarios.class.getMethod(name, Comm.class).invoke(null, world);
        } catch (java.lang.reflect.InvocationTargetException e) {
            if (e.getCause() instanceof Exception) {
                throw (Exception) e.getCause();
            }
            throw (Error) e.getCause();
        }
    }

    /** A barrier from point-to-point alone: everyone reports to 0, 0 releases everyone. */
    public static void sync(Comm c) {
        int tag = 9_999;
        if (c.rank() == 0) {
            for (int r = 1; r < c.size(); r++) {
                c.recv(Buffer.of(new byte[0]), r, tag);
            }
            for (int r = 1; r < c.size(); r++) {
                c.send(Buffer.of(new byte[0]), r, tag);
            }
        } else {
            c.send(Buffer.of(new byte[0]), 0, tag);
            c.recv(Buffer.of(new byte[0]), 0, tag);
        }
    }

    /**
     * Messages between one (source, tag) pair arrive in order, across eager and rendezvous sizes,
     * while other tags interleave.
     */
    public static void ordering(Comm c) {
        int n = c.size();
        int perTag = 60;
        int tags = 3;
        List<Request> sends = new ArrayList<>();
        for (int i = 0; i < perTag; i++) {
            for (int t = 0; t < tags; t++) {
                for (int d = 0; d < n; d++) {
                    if (d != c.rank()) {
                        sends.add(c.isend(Buffer.of(message(c.rank(), t, i)), d, t));
                    }
                }
            }
        }
        // Receive tags in reverse order, so earlier tags wait as unexpected messages.
        for (int t = tags - 1; t >= 0; t--) {
            for (int s = 0; s < n; s++) {
                if (s == c.rank()) {
                    continue;
                }
                for (int i = 0; i < perTag; i++) {
                    int[] expected = message(s, t, i);
                    int[] got = new int[expected.length];
                    Status st = c.recv(Buffer.of(got), s, t);
                    assertEquals(expected.length, st.count());
                    assertArrayEquals(expected, got, "message " + i + " from " + s + " tag " + t);
                }
            }
        }
        Request.waitAll(sends.toArray(new Request[0]));
        sync(c);
    }

    /** Every 7th message is large, so ordering is checked across both protocols. */
    private static int[] message(int src, int tag, int seq) {
        int len = seq % 7 == 3 ? LARGE_BYTES / 4 : 1 + seq % 5;
        int[] m = new int[len];
        Arrays.fill(m, src * 1_000_000 + tag * 10_000 + seq);
        return m;
    }

    /** ANY_SOURCE and ANY_TAG receive everything, and the status says who sent what. */
    public static void wildcards(Comm world) {
        int n = world.size();
        Comm c = world.dup(); // a private context, so sync traffic cannot match the wildcards
        if (c.rank() == 0) {
            Set<Integer> seen = new HashSet<>();
            for (int i = 1; i < n; i++) {
                int[] got = new int[2];
                Status st = c.recv(Buffer.of(got), Comm.ANY_SOURCE, Comm.ANY_TAG);
                assertEquals(got[0], st.source());
                assertEquals(got[1], st.tag());
                assertTrue(seen.add(st.source()), "duplicate source " + st.source());
            }
        } else {
            c.send(Buffer.of(new int[] {c.rank(), 100 + c.rank()}), 0, 100 + c.rank());
        }
        sync(world);
        // A specific tag with any source, then any tag with a specific source.
        if (c.rank() == 0) {
            for (int i = 1; i < n; i++) {
                int[] got = new int[2];
                Status st = c.recv(Buffer.of(got), Comm.ANY_SOURCE, 77);
                assertEquals(77, st.tag());
                assertEquals(77, got[1]);
                Status st2 = c.recv(Buffer.of(got), st.source(), Comm.ANY_TAG);
                assertEquals(88, st2.tag());
                assertEquals(st.source(), st2.source());
            }
        } else {
            Request.waitAll(c.isend(Buffer.of(new int[] {c.rank(), 88}), 0, 88),
                    c.isend(Buffer.of(new int[] {c.rank(), 77}), 0, 77));
        }
        sync(world);
        c.close();
    }

    /** probe learns the size, then recv takes exactly that message; iprobe sees nothing extra. */
    public static void probeUnknownSize(Comm c) {
        int n = c.size();
        if (c.rank() == 0) {
            assertNull(c.iprobe(Comm.ANY_SOURCE, 6)); // nobody sends tag 6
            for (int i = 1; i < n; i++) {
                Status st = c.probe(Comm.ANY_SOURCE, 5);
                int[] got = new int[st.count(ElementType.INT)];
                Status rs = c.recv(Buffer.of(got), st.source(), 5);
                assertEquals(st.source(), rs.source());
                assertEquals(lengthFor(st.source()), got.length);
                for (int v : got) {
                    assertEquals(st.source(), v);
                }
            }
        } else {
            int[] m = new int[lengthFor(c.rank())];
            Arrays.fill(m, c.rank());
            c.send(Buffer.of(m), 0, 5);
        }
        sync(c);
        if (c.rank() == 0) {
            assertNull(c.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG));
        }
    }

    private static int lengthFor(int rank) {
        return rank % 2 == 0 ? 3 + rank : LARGE_BYTES / 4 + rank; // both protocols
    }

    /** Traffic on one communicator never matches receives on another, even with equal tags. */
    public static void communicatorIsolation(Comm world) {
        Comm dup = world.dup();
        assertEquals(world.size(), dup.size());
        assertEquals(world.rank(), dup.rank());
        int n = world.size();
        int right = (world.rank() + 1) % n;
        int left = (world.rank() + n - 1) % n;
        // Send on world first, then on dup; receive dup first: only the dup message may match.
        Request a = world.isend(Buffer.of(new int[] {1}), right, 3);
        Request b = dup.isend(Buffer.of(new int[] {2}), right, 3);
        int[] got = new int[1];
        dup.recv(Buffer.of(got), left, 3);
        assertEquals(2, got[0]);
        world.recv(Buffer.of(got), left, 3);
        assertEquals(1, got[0]);
        Request.waitAll(a, b);

        Comm half = world.split(world.rank() % 2, -world.rank());
        int halfSize = (n + 1 - world.rank() % 2) / 2;
        assertEquals(halfSize, half.size());
        // key = -rank reverses the order within each half.
        assertEquals(halfSize - 1 - world.rank() / 2, half.rank());
        int[] token = {world.rank()};
        int[] sum = {0};
        // Sum of world ranks in my half, by a ring on the half communicator.
        for (int step = 0; step < half.size(); step++) {
            sum[0] += token[0];
            half.sendrecv(Buffer.of(token.clone()), (half.rank() + 1) % half.size(), 0, Buffer.of(token),
                    (half.rank() + half.size() - 1) % half.size(), 0);
        }
        int expected = 0;
        for (int r = world.rank() % 2; r < n; r += 2) {
            expected += r;
        }
        assertEquals(expected, sum[0]);

        int[] members = n >= 3 ? new int[] {n - 1, 0} : new int[] {0};
        Comm sub = world.create(members);
        if (world.rank() == members[0] || members.length > 1 && world.rank() == members[1]) {
            assertNotNull(sub);
            assertEquals(members.length, sub.size());
            assertEquals(world.rank() == members[0] ? 0 : 1, sub.rank());
            assertEquals(members[sub.rank()], sub.worldRank(sub.rank()));
            if (sub.size() == 2) {
                int[] x = {sub.rank() + 40};
                int[] y = new int[1];
                sub.sendrecv(Buffer.of(x), 1 - sub.rank(), 1, Buffer.of(y), 1 - sub.rank(), 1);
                assertEquals(41 - sub.rank(), y[0]);
            }
            sub.close();
        } else {
            assertNull(sub);
        }
        assertNull(world.split(Comm.UNDEFINED, 0));
        half.close();
        dup.close();
        sync(world);
    }

    /** Every buffer kind, with offsets, round-trips around the ring; and reinterprets as raw bytes. */
    public static void bufferTypes(Comm c) {
        int n = c.size();
        int right = (c.rank() + 1) % n;
        int left = (c.rank() + n - 1) % n;
        for (int count : new int[] {0, 1, 17, LARGE_BYTES / 8 + 3}) {
            Random rnd = new Random(c.rank() * 1000L + count);
            byte[] b = new byte[count + 4];
            rnd.nextBytes(b);
            int[] i = rnd.ints(count + 4).toArray();
            long[] l = rnd.longs(count + 4).toArray();
            float[] f = new float[count + 4];
            double[] d = rnd.doubles(count + 4).toArray();
            for (int k = 0; k < f.length; k++) {
                f[k] = rnd.nextFloat();
            }
            ByteBuffer heap = ByteBuffer.allocate(count + 4);
            ByteBuffer direct = ByteBuffer.allocateDirect(count * 8 + 4).order(ByteOrder.LITTLE_ENDIAN);
            for (int k = 0; k < heap.capacity(); k++) {
                heap.put(k, (byte) (k * 31 + c.rank()));
            }
            for (int k = 0; k < direct.capacity(); k++) {
                direct.put(k, (byte) (k * 7 + c.rank()));
            }
            Buffer[] out = {Buffer.of(b, 2, count), Buffer.of(i, 2, count), Buffer.of(l, 2, count),
                Buffer.of(f, 2, count), Buffer.of(d, 2, count), Buffer.of(heap.position(2).limit(2 + count).slice()),
                Buffer.of(direct.position(4).slice().order(ByteOrder.LITTLE_ENDIAN), ElementType.DOUBLE)};
            Buffer[] in = new Buffer[out.length];
            for (int k = 0; k < out.length; k++) {
                in[k] = out[k].type() == ElementType.BYTE && !out[k].hasArray()
                        ? Buffer.of(ByteBuffer.allocateDirect(out[k].count()))
                        : out[k].allocateLike(out[k].count());
            }
            List<Request> reqs = new ArrayList<>();
            for (int k = 0; k < out.length; k++) {
                reqs.add(c.irecv(in[k], left, k));
                reqs.add(c.isend(out[k], right, k));
            }
            Request.waitAll(reqs.toArray(new Request[0]));
            // Rebuild what the left neighbour sent, with its seed, and compare bytes.
            byte[] eb = new byte[count + 4];
            new Random(left * 1000L + count).nextBytes(eb);
            assertArrayEquals(Arrays.copyOfRange(eb, 2, 2 + count), bytesOf(in[0]), "byte[] count " + count);
            for (int k = 1; k < out.length; k++) {
                assertEquals(out[k].byteLength(), in[k].byteLength());
            }
            // Typed arrays: compare against our own send made with the neighbour's generator.
            Random lr = new Random(left * 1000L + count);
            lr.nextBytes(new byte[count + 4]);
            int[] ei = lr.ints(count + 4).toArray();
            long[] el = lr.longs(count + 4).toArray();
            assertArrayEquals(Arrays.copyOfRange(ei, 2, 2 + count), (int[]) in[1].array());
            assertArrayEquals(Arrays.copyOfRange(el, 2, 2 + count), (long[]) in[2].array());
            double[] ed = lr.doubles(count + 4).toArray();
            float[] ef = new float[count + 4];
            for (int k = 0; k < ef.length; k++) {
                ef[k] = lr.nextFloat();
            }
            assertArrayEquals(Arrays.copyOfRange(ef, 2, 2 + count), (float[]) in[3].array());
            assertArrayEquals(Arrays.copyOfRange(ed, 2, 2 + count), (double[]) in[4].array());
            byte[] eh = new byte[count];
            for (int k = 0; k < count; k++) {
                eh[k] = (byte) ((k + 2) * 31 + left);
            }
            assertArrayEquals(eh, bytesOf(in[5]));
            byte[] edir = new byte[count * 8];
            for (int k = 0; k < edir.length; k++) {
                edir[k] = (byte) ((k + 4) * 7 + left);
            }
            assertArrayEquals(edir, bytesOf(in[6]));
        }
        sync(c);
    }

    private static byte[] bytesOf(Buffer b) {
        ByteBuffer out = ByteBuffer.allocate(b.byteLength());
        b.copyOut(0, out);
        return out.array();
    }

    /** A 16 MiB message to every other rank arrives intact (byte[] and int[]). */
    public static void sixteenMiB(Comm c) {
        int bytes = 16 << 20;
        if (c.rank() == 0) {
            byte[] m = new byte[bytes];
            new Random(42).nextBytes(m);
            int[] mi = new int[bytes / 4];
            for (int k = 0; k < mi.length; k++) {
                mi[k] = k * 31;
            }
            for (int d = 1; d < c.size(); d++) {
                c.send(Buffer.of(m), d, 1);
                c.send(Buffer.of(mi), d, 2);
            }
        } else {
            byte[] got = new byte[bytes];
            c.recv(Buffer.of(got), 0, 1);
            byte[] m = new byte[bytes];
            new Random(42).nextBytes(m);
            assertEquals(crc(m), crc(got));
            int[] gi = new int[bytes / 4];
            c.recv(Buffer.of(gi), 0, 2);
            for (int k = 0; k < gi.length; k++) {
                if (gi[k] != k * 31) {
                    throw new AssertionError("int[] 16 MiB message differs at " + k);
                }
            }
        }
        sync(c);
    }

    private static long crc(byte[] b) {
        CRC32 crc = new CRC32();
        crc.update(b);
        return crc.getValue();
    }

    /**
     * 10,000 small messages sent before any receive is posted all arrive, in order, intact. The
     * sends are non-blocking: under a rendezvous protocol a blocking send may legally wait for its
     * receive.
     */
    public static void unexpectedFlood(Comm c) {
        int count = 10_000;
        if (c.rank() != 0) {
            Request[] sends = new Request[count];
            for (int k = 0; k < count; k++) {
                sends[k] = c.isend(Buffer.of(new int[] {c.rank(), k, c.rank() ^ k}), 0, 11);
            }
            sync(c);
            Request.waitAll(sends);
        } else {
            sync(c); // every sender has finished sending before we receive anything
            for (int s = 1; s < c.size(); s++) {
                CRC32 sent = new CRC32();
                CRC32 got = new CRC32();
                int[] m = new int[3];
                for (int k = 0; k < count; k++) {
                    c.recv(Buffer.of(m), s, 11);
                    assertEquals(k, m[1], "order from " + s);
                    got.update(ByteBuffer.wrap(intBytes(m)));
                    sent.update(ByteBuffer.wrap(intBytes(new int[] {s, k, s ^ k})));
                }
                assertEquals(sent.getValue(), got.getValue());
            }
            assertNull(c.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG));
        }
    }

    private static byte[] intBytes(int[] a) {
        ByteBuffer b = ByteBuffer.allocate(a.length * 4);
        b.asIntBuffer().put(a);
        return b.array();
    }

    /** A receive buffer too small fails with TruncationException; the stream goes on unharmed. */
    public static void truncation(Comm c) {
        if (c.size() < 2) {
            return;
        }
        if (c.rank() == 1) {
            c.send(Buffer.of(new int[10]), 0, 1);
            c.send(Buffer.of(new int[LARGE_BYTES]), 0, 1);
            c.send(Buffer.of(new int[] {7}), 0, 1);
        } else if (c.rank() == 0) {
            assertThrows(TruncationException.class, () -> c.recv(Buffer.of(new int[5]), 1, 1));
            assertThrows(TruncationException.class, () -> c.recv(Buffer.of(new int[5]), 1, 1));
            int[] ok = new int[1];
            c.recv(Buffer.of(ok), 1, 1);
            assertEquals(7, ok[0]);
        }
        sync(c);
    }

    /** isend/irecv with test, waitAny and waitAll; sendrecv around a ring. */
    public static void nonBlocking(Comm c) {
        int n = c.size();
        int right = (c.rank() + 1) % n;
        int left = (c.rank() + n - 1) % n;
        int[] got = new int[1];
        Request r = c.irecv(Buffer.of(got), left, 4);
        Request s = c.isend(Buffer.of(new int[] {c.rank()}), right, 4);
        int first = Request.waitAny(r, s);
        assertTrue((first == 0 ? r : s).test());
        Request.waitAll(r, s);
        assertEquals(left, got[0]);
        assertEquals(left, r.status().source());
        int[] in = new int[1];
        Status st = c.sendrecv(Buffer.of(new int[] {c.rank() * 3}), right, 6, Buffer.of(in), left, 6);
        assertEquals(left * 3, in[0]);
        assertEquals(left, st.source());
        sync(c);
    }

    /** A rank can send to itself, eager and rendezvous. */
    public static void selfSend(Comm c) {
        int[] small = {1, 2, 3};
        Request s = c.isend(Buffer.of(small), c.rank(), 2);
        int[] got = new int[3];
        c.recv(Buffer.of(got), c.rank(), 2);
        s.await();
        assertArrayEquals(small, got);
        int[] large = new int[LARGE_BYTES];
        Arrays.fill(large, 9);
        int[] gotLarge = new int[LARGE_BYTES];
        Request rr = c.irecv(Buffer.of(gotLarge), c.rank(), 3);
        c.send(Buffer.of(large), c.rank(), 3);
        rr.await();
        assertArrayEquals(large, gotLarge);
        sync(c);
    }

    /**
     * A halo exchange along a line of ranks with {@link Comm#PROC_NULL} beyond both ends, as MPI codes write it: no
     * branch at the edges; a transfer with PROC_NULL completes at once, moves nothing and its status says PROC_NULL.
     */
    public static void procNullHalo(Comm c) {
        int r = c.rank();
        int left = r == 0 ? Comm.PROC_NULL : r - 1;
        int right = r == c.size() - 1 ? Comm.PROC_NULL : r + 1;
        int[] fromLeft = {-7};
        int[] fromRight = {-7};
        Status l = c.sendrecv(Buffer.of(new int[] {r}), right, 3, Buffer.of(fromLeft), left, 3);
        Status rt = c.sendrecv(Buffer.of(new int[] {r}), left, 4, Buffer.of(fromRight), right, 4);
        assertEquals(left == Comm.PROC_NULL ? -7 : left, fromLeft[0], "from the left on rank " + r);
        assertEquals(right == Comm.PROC_NULL ? -7 : right, fromRight[0], "from the right on rank " + r);
        assertEquals(left, l.source());
        assertEquals(right, rt.source());
        if (left == Comm.PROC_NULL) {
            assertEquals(new Status(Comm.PROC_NULL, Comm.ANY_TAG, 0, 4), l);
        }
        assertEquals(Comm.PROC_NULL, c.probe(Comm.PROC_NULL, Comm.ANY_TAG).source());
        assertEquals(Comm.PROC_NULL, c.iprobe(Comm.PROC_NULL, 5).source());
        Request nothing = c.irecv(Buffer.of(new int[1]), Comm.PROC_NULL, 6);
        assertTrue(nothing.test());
        c.send(Buffer.of(new int[] {1}), Comm.PROC_NULL, 7);
        sync(c);
    }
}
