package io.mpirunj.runtime.fabric;

import io.mpirunj.runtime.NanoClock;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A rank process's client of the launcher's {@link ArbiterService} ({@link ArbiterProtocol}): submits
 * its messages and hears when to hand each on. Its clock is the service's model clock (same host).
 */
final class RemoteArbiter implements MessageArbiter {
    private final Socket socket;
    private final DataOutputStream out;
    private final DataInputStream in;
    private final int rank;
    private final double nanosPerUnit;
    private final AtomicLong nextId = new AtomicLong();
    private final Map<Long, FabricArbiter.Outcome> pending = new ConcurrentHashMap<>();
    private volatile long origin;
    private volatile EmulatedFabric fabric;

    private RemoteArbiter(Socket socket, int rank, double microsPerUnit) throws IOException {
        this.socket = socket;
        this.rank = rank;
        this.nanosPerUnit = microsPerUnit * 1000;
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
    }

    static RemoteArbiter connect(String address, int rank, double microsPerUnit) {
        int colon = address.lastIndexOf(':');
        try {
            Socket s = new Socket();
            s.connect(new InetSocketAddress(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1))),
                    10_000);
            s.setTcpNoDelay(true);
            RemoteArbiter r = new RemoteArbiter(s, rank, microsPerUnit);
            r.out.writeByte(ArbiterProtocol.HELLO);
            r.out.writeInt(rank);
            r.out.flush();
            if (r.in.readByte() != ArbiterProtocol.ORIGIN) {
                throw new IOException("unexpected answer");
            }
            r.origin = r.in.readLong();
            Thread reader = new Thread(r::read, "fabric-arbiter-client");
            reader.setDaemon(true);
            reader.start();
            return r;
        } catch (IOException | RuntimeException e) {
            throw new UncheckedIOException(new IOException("cannot reach the fabric arbiter at " + address + ": " + e, e));
        }
    }

    void bind(EmulatedFabric f) {
        this.fabric = f;
    }

    /** The service's model clock: model units x the scale, in ns, monotonic per thread. */
    NanoClock clock() {
        ThreadLocal<long[]> last = ThreadLocal.withInitial(() -> new long[] {Long.MIN_VALUE});
        return () -> {
            long[] l = last.get();
            long t = Math.max(l[0], System.nanoTime() - origin);
            l[0] = t;
            return t;
        };
    }

    @Override
    public void submit(int src, int dst, long bytes, FabricArbiter.Outcome outcome) {
        submit(src, dst, bytes, false, outcome);
    }

    @Override
    public void submit(int src, int dst, long bytes, boolean data, FabricArbiter.Outcome outcome) {
        long id = ((long) rank << 40) | nextId.getAndIncrement() | (data ? ArbiterService.DATA_BIT : 0);
        pending.put(id, outcome);
        try {
            synchronized (out) {
                out.writeByte(ArbiterProtocol.SUBMIT);
                out.writeLong(id);
                out.writeInt(src);
                out.writeInt(dst);
                out.writeLong(bytes);
                out.flush();
            }
        } catch (IOException e) {
            pending.remove(id);
            outcome.lost(new LinkFailedException("(fabric arbiter unreachable: " + e.getMessage() + ")", Double.NaN,
                    src, dst));
        }
    }

    private void read() {
        try {
            while (true) {
                byte kind = in.readByte();
                long id = in.readLong();
                if (kind == ArbiterProtocol.DELIVER) {
                    origin = in.readLong();
                    FabricArbiter.Outcome o = pending.remove(id);
                    if (o != null) {
                        o.delivered(Double.NaN);
                    }
                } else if (kind == ArbiterProtocol.LOST) {
                    boolean data = in.readBoolean();
                    String link = in.readUTF();
                    double droppedAt = in.readDouble();
                    int src = in.readInt();
                    int dst = in.readInt();
                    LinkFailedException cause = new LinkFailedException(link, droppedAt, src, dst, id & ~ArbiterService.DATA_BIT);
                    FabricArbiter.Outcome o = pending.remove(id);
                    if (o != null) {
                        o.lost(cause); // this rank sent it
                    } else if (fabric != null) {
                        fabric.lostTo(cause, data, src, dst); // this rank was to receive it
                    }
                } else {
                    return;
                }
            }
        } catch (IOException e) {
            // the service closed: the job is ending
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
