package io.mpirunj.runtime.fabric;

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
 * its messages and hears when to hand each on, and when the messages to it were delivered. Its clock is
 * the service's model clock: the same {@link ModelOrigin}, a file both map (same host).
 */
final class RemoteArbiter implements MessageArbiter {
    private final Socket socket;
    private final DataOutputStream out;
    private final DataInputStream in;
    private final int rank;
    private final AtomicLong nextId = new AtomicLong();
    private final Map<Long, FabricArbiter.Outcome> pending = new ConcurrentHashMap<>();
    private ModelOrigin origin;
    private volatile EmulatedFabric fabric;

    private RemoteArbiter(Socket socket, int rank) throws IOException {
        this.socket = socket;
        this.rank = rank;
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
    }

    static RemoteArbiter connect(String address, int rank) {
        int colon = address.lastIndexOf(':');
        try {
            Socket s = new Socket();
            s.connect(new InetSocketAddress(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1))),
                    10_000);
            s.setTcpNoDelay(true);
            RemoteArbiter r = new RemoteArbiter(s, rank);
            r.out.writeByte(ArbiterProtocol.HELLO.code);
            r.out.writeInt(rank);
            r.out.flush();
            if (r.in.readByte() != ArbiterProtocol.ORIGIN.code) {
                throw new IOException("unexpected answer");
            }
            r.origin = ModelOrigin.mapped(java.nio.file.Path.of(r.in.readUTF()), false, 0);
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

    /** Model time 0 of the service's arbiter (on this host's monotonic clock). */
    ModelOrigin origin() {
        return origin;
    }

    @Override
    public void submit(int src, int dst, long bytes, FabricArbiter.Outcome outcome) {
        submit(src, dst, bytes, false, System.nanoTime() - origin.get(), outcome);
    }

    @Override
    public void submit(int src, int dst, long bytes, boolean data, long sentAt, FabricArbiter.Outcome outcome) {
        long id = ((long) rank << 40) | nextId.getAndIncrement() | (data ? ArbiterService.DATA_BIT : 0);
        pending.put(id, outcome);
        try {
            synchronized (out) {
                out.writeByte(ArbiterProtocol.SUBMIT.code);
                out.writeLong(id);
                out.writeInt(src);
                out.writeInt(dst);
                out.writeLong(bytes);
                out.writeLong(sentAt);
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
                if (kind == ArbiterProtocol.ARRIVING.code) {
                    long id = in.readLong();
                    int src = in.readInt();
                    double at = in.readDouble();
                    EmulatedFabric f = fabric;
                    if (f != null) {
                        f.delivering(src, rank, at);
                    }
                    synchronized (out) {
                        out.writeByte(ArbiterProtocol.NOTED.code);
                        out.writeLong(id);
                        out.flush();
                    }
                    continue;
                }
                long id = in.readLong();
                if (kind == ArbiterProtocol.DELIVER.code) {
                    FabricArbiter.Outcome o = pending.remove(id);
                    if (o != null) {
                        o.delivered(Double.NaN);
                    }
                } else if (kind == ArbiterProtocol.LOST.code) {
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
