package io.mpirunj.runtime.fabric;

import io.mpirunj.runtime.NanoClock;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The emulated fabric's arbiter as a service, hosted by the launcher for ranks as processes: one
 * {@link FabricArbiter} for the whole job; each rank process connects ({@link RemoteArbiter}) and submits
 * its messages; the service tells the sender when to hand each one on (or that it was lost, telling the
 * receiver too). Ranks on this host only: model time is this host's monotonic clock minus the origin.
 */
public final class ArbiterService implements AutoCloseable {
    private final FabricArbiter arbiter;
    /** Model time 0, shared with the rank processes (see {@link ModelOrigin}). */
    private final Path originFile;
    private final ServerSocket server;
    private final Map<Integer, Connection> ranks = new ConcurrentHashMap<>();
    private final Thread acceptor;
    private volatile boolean closed;

    private final class Connection {
        final Socket socket;
        final DataOutputStream out;

        Connection(Socket socket) throws IOException {
            this.socket = socket;
            this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
        }

        synchronized void deliver(long id) {
            try {
                out.writeByte(ArbiterProtocol.DELIVER.code);
                out.writeLong(id);
                out.flush();
            } catch (IOException e) {
                // the rank is gone; the launcher reports that
            }
        }

        /** Messages announced to this rank (ARRIVING) that it has not NOTED yet. */
        final java.util.Set<Long> unnoted = ConcurrentHashMap.newKeySet();

        synchronized void arriving(long id, int src, double at) {
            unnoted.add(id);
            try {
                out.writeByte(ArbiterProtocol.ARRIVING.code);
                out.writeLong(id);
                out.writeInt(src);
                out.writeDouble(at);
                out.flush();
            } catch (IOException e) {
                noted(id); // the rank is gone (the launcher reports that): its sender must not wait
            }
        }

        /** The receiver knows message {@code id}'s time (or is gone): its sender may hand it on. */
        void noted(long id) {
            if (unnoted.remove(id)) {
                Connection sender = ranks.get((int) ((id & ~DATA_BIT) >>> 40));
                if (sender != null) {
                    sender.deliver(id);
                }
            }
        }

        synchronized void lost(long id, boolean data, LinkFailedException cause, double droppedAt, int src, int dst) {
            try {
                out.writeByte(ArbiterProtocol.LOST.code);
                out.writeLong(id);
                out.writeBoolean(data);
                out.writeUTF(cause.link());
                out.writeDouble(droppedAt);
                out.writeInt(src);
                out.writeInt(dst);
                out.flush();
            } catch (IOException e) {
                // the rank is gone
            }
        }
    }

    public ArbiterService(FabricEmulation emulation) throws IOException {
        this.originFile = Files.createTempFile("mpirunj-fabric-clock", ".bin");
        originFile.toFile().deleteOnExit();
        this.arbiter = emulation.newArbiter(NanoClock.SYSTEM,
                ModelOrigin.mapped(originFile, true, NanoClock.SYSTEM.nanoTime()));
        this.server = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::accept, "fabric-arbiter-service");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** {@code host:port} for {@link FabricEmulation#ARBITER_ENV}. */
    public String address() {
        InetSocketAddress a = (InetSocketAddress) server.getLocalSocketAddress();
        return a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    private void accept() {
        while (!closed) {
            try {
                Socket s = server.accept();
                s.setTcpNoDelay(true);
                Thread t = new Thread(() -> serve(s), "fabric-arbiter-rank");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        Connection c;
        try {
            c = new Connection(s);
        } catch (IOException e) {
            return; // the rank died at once
        }
        try (s; DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()))) {
            if (in.readByte() != ArbiterProtocol.HELLO.code) {
                return;
            }
            ranks.put(in.readInt(), c);
            synchronized (c) {
                c.out.writeByte(ArbiterProtocol.ORIGIN.code);
                c.out.writeUTF(originFile.toString());
                c.out.flush();
            }
            while (true) {
                byte kind = in.readByte();
                if (kind == ArbiterProtocol.NOTED.code) {
                    c.noted(in.readLong());
                    continue;
                }
                if (kind != ArbiterProtocol.SUBMIT.code) {
                    return;
                }
                long id = in.readLong();
                int src = in.readInt();
                int dst = in.readInt();
                long bytes = in.readLong();
                long sentAt = in.readLong();
                boolean data = (id & DATA_BIT) != 0;
                arbiter.submit(src, dst, bytes, data, sentAt, new FabricArbiter.Outcome() {
                    @Override
                    public void delivered(double at) {
                        Connection receiver = ranks.get(dst);
                        if (receiver != null) {
                            receiver.arriving(id, src, at); // its NOTED answer releases the message
                        } else {
                            c.deliver(id);
                        }
                    }

                    @Override
                    public void lost(LinkFailedException cause) {
                        c.lost(id, data, cause, cause.droppedAt(), src, dst);
                        Connection receiver = ranks.get(dst);
                        if (receiver != null) {
                            receiver.lost(id, data, cause, cause.droppedAt(), src, dst);
                        }
                    }
                });
            }
        } catch (EOFException e) {
            // the rank closed its connection
        } catch (IOException e) {
            // the rank died; the launcher reports that
        } finally {
            for (Long id : c.unnoted.toArray(Long[]::new)) {
                c.noted(id); // it will not answer: its senders must not wait
            }
        }
    }

    /** Set in a message id for a rendezvous DATA frame (a loss breaks the pair, see {@link EmulatedTransport}). */
    static final long DATA_BIT = 1L << 62;

    @Override
    public void close() {
        closed = true;
        arbiter.close();
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
        for (Connection c : ranks.values()) {
            try {
                c.socket.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
        try {
            Files.deleteIfExists(originFile);
        } catch (IOException e) {
            // deleted on exit
        }
    }
}
